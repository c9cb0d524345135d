/** Code: inline and in blocks, the copy button, marked lines and the token colours. */
export const CODE_CSS = `/* Code */
code,
pre {
  font-family: var(--font-code);
  font-size: 0.875em;
}

:not(pre) > code {
  padding: 0.1em 0.35em;
  border-radius: 4px;
  background: var(--code-bg);
  overflow-wrap: break-word;
}

/* In a table an identifier stays whole: the table scrolls sideways instead (.table-scroll). */
td code,
th code {
  white-space: nowrap;
  overflow-wrap: normal;
}

.code-block {
  position: relative;
  margin: 0 0 1rem;
}

.code-block pre.code {
  margin: 0;
}

/* Long lines scroll inside their block (deliberately: wrapping code changes what it says). */
pre.code {
  position: relative;
  padding: 1rem 1rem;
  overflow-x: auto;
  border: 1px solid var(--border);
  border-radius: var(--radius);
  background: var(--code-bg);
  line-height: 1.5;
  tab-size: 2;
}

pre.code[data-lang]::before {
  content: attr(data-lang);
  position: absolute;
  top: 0.3rem;
  right: 0.6rem;
  pointer-events: none;
  color: var(--muted);
  font-family: var(--font-body);
  font-size: 0.7rem;
  text-transform: uppercase;
}

pre.code code {
  font-size: inherit;
}

.copy-button {
  position: absolute;
  top: 0.35rem;
  right: 0.35rem;
  padding: 0.1rem 0.5rem;
  font-size: 0.75rem;
  opacity: 0;
}

.code-block:hover .copy-button,
.copy-button:focus-visible {
  opacity: 1;
}

/* The button takes the corner where the language label sits. */
.code-block:hover pre.code[data-lang]::before {
  opacity: 0;
}

@media (hover: none) {
  .copy-button {
    opacity: 1;
  }

  .code-block:has(.copy-button) pre.code[data-lang]::before {
    display: none;
  }
}

/* Lines a guide points at (\`\`\`ts {3-4}) */
pre.code .line {
  display: inline-block;
  min-width: 100%;
}

pre.code .line.highlighted {
  margin: 0 -1rem;
  padding: 0 1rem;
  min-width: calc(100% + 2rem);
  border-left: 3px solid var(--accent);
  background: var(--current-bg);
}

.tok-keyword { color: var(--tok-keyword); }
.tok-string { color: var(--tok-string); }
.tok-number { color: var(--tok-number); }
.tok-comment { color: var(--tok-comment); font-style: italic; }
.tok-type { color: var(--tok-type); }
.tok-punctuation { color: var(--tok-punctuation); }
.tok-property { color: var(--tok-property); }
.tok-variable { color: var(--tok-variable); }

`;
