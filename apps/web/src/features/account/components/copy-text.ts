import { toast } from 'sonner';
import { MESSAGES } from '../wording';

/** Copies text to the clipboard and says whether it worked (a refused clipboard leaves the text to select by hand). */
export async function copyText(text: string, copied: string = MESSAGES.security.copied): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
  } catch {
    toast.error(MESSAGES.security.copyFailed);
  }
}
