/**
 * Gives each class its own name as `.name`. `HttpError` copies `new.target.name` into `error.name`,
 * which logs and traces show; in the published package the bundler renames classes (`NotFoundError2`
 * where two modules declare the same name, a one-letter name once identifiers are minified), so a
 * class that relies on its own name states it here. Internal: not exported from the package.
 */
export function keepClassNames(
  classes: Readonly<Record<string, abstract new (...args: never[]) => unknown>>,
): void {
  for (const [name, value] of Object.entries(classes)) {
    Object.defineProperty(value, 'name', { value: name, configurable: true });
  }
}
