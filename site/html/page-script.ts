/**
 * The pages' one script, served from `/assets/site.<hash8>.js` under `script-src 'self'` with a
 * Subresource Integrity hash (no inline script, no `eval`, no HTML written from strings: elements
 * and `textContent` only). It only enhances: every page works without it.
 *
 * - A "Copy" button on each code block (the Async Clipboard API, which needs a secure context:
 *   https, or http on localhost), announced through a live region.
 * - Suggestions under each search box as the reader types (WAI-ARIA 1.2 combobox with a listbox
 *   popup): page titles, sections and API exports from `/search/suggestions.json`, fetched once, on
 *   the first focus. Arrow keys move through them, Enter opens the one chosen (or, with none
 *   chosen, submits the form: the full search), Escape closes them.
 */

/** The script's source (plain ES2020, no modules: it runs as a classic deferred script). */
export const SITE_JS = `'use strict';
(function () {
  var status = document.createElement('p');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  document.body.appendChild(status);

  if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
    var blocks = document.querySelectorAll('.code-block');
    for (var i = 0; i < blocks.length; i++) addCopyButton(blocks[i]);
  }
  var forms = document.querySelectorAll('form.search-form');
  for (var j = 0; j < forms.length; j++) addSuggestions(forms[j]);

  function addCopyButton(block) {
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

  var suggestions = null;
  function loadSuggestions() {
    if (!suggestions) {
      suggestions = fetch('/search/suggestions.json', { credentials: 'omit' })
        .then(function (response) { return response.ok ? response.json() : []; })
        .then(function (list) { return Array.isArray(list) ? list : []; }, function () { return []; });
    }
    return suggestions;
  }

  /** Entries holding every word, best first: text starting with the query, then words starting words. */
  function match(list, query) {
    var words = query.toLowerCase().split(/\\s+/).filter(Boolean);
    if (words.join(' ').length < 2) return [];
    var phrase = words.join(' ');
    var found = [];
    for (var i = 0; i < list.length && found.length < 400; i++) {
      var text = String(list[i][0]).toLowerCase();
      var rank = 0;
      for (var w = 0; w < words.length; w++) {
        var at = text.indexOf(words[w]);
        if (at === -1) { rank = -1; break; }
        if (at > 0 && /[a-z0-9]/.test(text.charAt(at - 1))) rank = Math.max(rank, 2);
        else rank = Math.max(rank, 1);
      }
      if (rank === -1) continue;
      if (text.indexOf(phrase) === 0) rank = 0;
      found.push({ rank: rank, index: i, entry: list[i] });
    }
    found.sort(function (a, b) { return a.rank - b.rank || a.index - b.index; });
    return found.slice(0, 8).map(function (item) { return item.entry; });
  }

  function addSuggestions(form) {
    var input = form.querySelector('input[name="q"]');
    if (!input || !window.fetch) return;
    var list = document.createElement('ul');
    list.id = input.id + '-suggestions';
    list.className = 'suggestions';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', 'Suggestions');
    list.hidden = true;
    form.appendChild(list);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', list.id);
    input.setAttribute('aria-expanded', 'false');
    var active = -1;
    var timer;

    function options() { return list.querySelectorAll('[role="option"]'); }
    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    }
    function select(next) {
      var all = options();
      if (all.length === 0) return;
      if (active >= 0) all[active].setAttribute('aria-selected', 'false');
      active = (next + all.length) % all.length;
      all[active].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', all[active].id);
      all[active].scrollIntoView({ block: 'nearest' });
    }
    function render(entries) {
      while (list.firstChild) list.removeChild(list.firstChild);
      active = -1;
      input.removeAttribute('aria-activedescendant');
      if (entries.length === 0) { close(); return; }
      entries.forEach(function (entry, i) {
        var item = document.createElement('li');
        item.id = list.id + '-' + i;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        var link = document.createElement('a');
        link.href = String(entry[1]);
        link.tabIndex = -1;
        link.textContent = String(entry[0]);
        if (entry[2]) {
          var context = document.createElement('span');
          context.className = 'suggestion-context';
          context.textContent = String(entry[2]);
          link.appendChild(context);
        }
        item.appendChild(link);
        list.appendChild(item);
      });
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }
    function update() {
      var query = input.value;
      loadSuggestions().then(function (all) {
        if (input.value === query) render(match(all, query));
      });
    }

    input.addEventListener('focus', loadSuggestions);
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(update, 80);
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (list.hidden) return;
        event.preventDefault();
        select(active + (event.key === 'ArrowDown' ? 1 : -1));
      } else if (event.key === 'Enter' && !list.hidden && active >= 0) {
        event.preventDefault();
        window.location.assign(options()[active].querySelector('a').href);
      } else if (event.key === 'Escape' && !list.hidden) {
        event.preventDefault();
        close();
      }
    });
    // A click on a suggestion must reach its link before the box loses focus and closes the list.
    list.addEventListener('mousedown', function (event) { event.preventDefault(); });
    input.addEventListener('blur', close);
  }
})();
`;
