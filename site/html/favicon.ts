/** The favicon: a "C" on the accent colour, drawn with a path (no fonts, no scripts, no styles). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#2f5bd3"/>
<path d="M21.1 9.9A8 8 0 1 0 21.1 22.1" fill="none" stroke="#ffffff" stroke-width="3.4" stroke-linecap="round"/>
</svg>
`;
