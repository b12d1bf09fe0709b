/**
 * Step-up: when the server answers 401 `step_up_required`, the API client asks the person to
 * confirm it is them through the asker the app shell registers (a dialog), then retries the
 * request once. Requests refused together share one dialog.
 */
export type StepUpAsker = () => Promise<void>;

let asker: StepUpAsker | null = null;
let pending: Promise<void> | null = null;

/** Registers the dialog that asks; the returned function takes it away again. */
export function setStepUpAsker(next: StepUpAsker): () => void {
  asker = next;
  return () => {
    if (asker === next) asker = null;
  };
}

/** Whether something can ask the person (outside the signed-in shell nothing does). */
export function canAskStepUp(): boolean {
  return asker !== null;
}

/** Asks the person once for every request waiting on it: resolves once they confirmed, rejects when they cancelled. */
export function askStepUp(): Promise<void> {
  if (!asker) return Promise.reject(new Error('Nothing can ask for a step-up'));
  pending ??= asker().finally(() => {
    pending = null;
  });
  return pending;
}
