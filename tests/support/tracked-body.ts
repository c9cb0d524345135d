/**
 * A request body that records whether anyone pulled it: the proof that a guard refused a request
 * before reading its body (framework.md "Authentication" item 1).
 */
export interface TrackedBody {
  readonly body: ReadableStream<Uint8Array>;
  /** True once any reader pulled a chunk. */
  pulled(): boolean;
}

export function trackedBody(text: string): TrackedBody {
  let pulled = false;
  // highWaterMark 0: the stream does not pull ahead to fill its own queue; only a reader pulls.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulled = true;
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => pulled };
}
