/**
 * @module charter/banner — the startup banner: `formatStartupBanner(options)` returns its text,
 * `printStartupBanner(options)` prints it, and the terminal checks they use (NO_COLOR, FORCE_COLOR, a
 * TTY, a UTF-8 locale). The runtime adapters print it when `serve()` listens, unless `banner: false`.
 */
export {
  formatStartupBanner,
  type PrintStartupBannerOptions,
  printStartupBanner,
  type StartupBannerLink,
  type StartupBannerOptions,
} from './format.ts';
export { MAX_BANNER_TEXT_LENGTH, terminalSafeText } from './sanitize.ts';
export {
  type BannerApp,
  browsableUrl,
  printServeBanner,
  runtimeLabel,
  serveBannerOptions,
  shouldPrintServeBanner,
} from './serve-banner.ts';
export { shouldUseColor, supportsUnicode, type TerminalEnvironment } from './terminal.ts';
