/**
 * The benchmark servers' lifecycle: each prints `ready <port>` once listening; its stdout is drained
 * afterwards so it can never block on a full pipe; stopping is SIGTERM, then SIGKILL after 3 s.
 */

/** Reads a stream to its end and drops what it reads, so its writer never blocks on a full pipe. */
export function drain(stream: ReadableStream<Uint8Array>): void {
  void (async () => {
    const reader = stream.getReader();
    while (!(await reader.read()).done) {}
  })().catch(() => {});
}

/**
 * Waits for `proc`'s `ready <port>` line and returns the port; kills it (and throws, with what it
 * printed) when it exits first or does not get ready within `timeoutMs`.
 */
export async function readyPort(
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe' | 'inherit'>,
  label: string,
  timeoutMs: number,
): Promise<number> {
  const stderr = proc.stderr instanceof ReadableStream ? new Response(proc.stderr).text() : undefined;
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timeout = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`${label} exited before it was ready:\n${text}\n${(await stderr) ?? ''}`);
      text += decoder.decode(value, { stream: true });
      const match = /^ready (\d+)$/m.exec(text);
      if (match !== null) {
        reader.releaseLock();
        drain(proc.stdout);
        return Number(match[1]);
      }
    }
  } catch (error) {
    proc.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

/** Stops a server: SIGTERM, then SIGKILL when it has not exited 3 s later. */
export async function stopProcess(proc: Bun.Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGTERM');
  const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
  if (!exited) {
    proc.kill('SIGKILL');
    await proc.exited;
  }
}
