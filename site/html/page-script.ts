/**
 * The pages' one script, served from `/assets/site.<hash8>.js` under `script-src 'self'` with a
 * Subresource Integrity hash (no inline script, no `eval`). It only enhances: every page works
 * without it. It gives each code block a "Copy" button (the Async Clipboard API, which needs a
 * secure context: https, or http on localhost) that announces the result through a live region.
 */

/** The script's source (plain ES2020, no modules: it runs as a classic deferred script). */
export const SITE_JS = `'use strict';
(function () {
  if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') return;
  var status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  document.body.appendChild(status);
  var blocks = document.querySelectorAll('.code-block');
  for (var i = 0; i < blocks.length; i++) addButton(blocks[i]);

  function addButton(block) {
    var code = block.querySelector('pre code');
    if (!code) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy this code');
    var timer;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(code.textContent || '').then(
        function () { show('Copied'); },
        function () { show('Copy failed'); }
      );
    });
    function show(text) {
      button.textContent = text;
      status.textContent = text === 'Copied' ? 'Code copied to the clipboard' : 'The code could not be copied';
      clearTimeout(timer);
      timer = setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    }
    block.appendChild(button);
  }
})();
`;
