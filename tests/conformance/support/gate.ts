/** A promise the test opens when it chooses: `await gate.opened` waits until `gate.open()`. */
export function createGate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
