/**
 * The site's one stylesheet, kept in a module so the compiled executable embeds it (no file access
 * at run time). Served from `/assets/site.<hash8>.css` by `SITE_ASSETS`. It relies on nothing inline:
 * the pages run under `style-src 'self'` with no `style` attributes.
 */

import { CODE_CSS } from './styles/code.ts';
import { NAVIGATION_CSS } from './styles/navigation.ts';
import { PAGE_FRAME_CSS } from './styles/page-frame.ts';
import { SEARCH_AND_TABLES_CSS } from './styles/search-tables.ts';

/**
 * The CSS of every page: layout, typography, navigation, code and token colours, dark mode; kept in
 * parts by what they style (site/html/styles/), joined in the order the cascade needs.
 */
export const SITE_CSS = PAGE_FRAME_CSS + NAVIGATION_CSS + CODE_CSS + SEARCH_AND_TABLES_CSS;
