/** What `fn` throws, typed as the Error the test expects; fails the test when `fn` returns instead. */
export function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}
