/**
 * Runs `work` now, or once more right after the run in progress: calls meanwhile merge into that one.
 * Nothing starts while `active()` is false; a failure goes to `failed` and the next call runs again.
 */
export function coalesced(work: () => Promise<void>, failed: (error: unknown) => void, active: () => boolean): () => void {
  let busy = false;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      try {
        await work();
      } catch (error) {
        failed(error);
      }
    } while (again && active());
    busy = false;
  };
  return () => {
    if (!active()) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    void loop();
  };
}
