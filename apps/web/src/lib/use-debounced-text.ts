import { useEffect, useRef, useState } from 'react';

/**
 * A text field kept in the URL: typed into local state at once, written to the URL 300 ms
 * after the last key, so a search runs once per pause rather than per key.
 */
export function useDebouncedText(value: string, commit: (text: string) => void, delayMs = 300) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  // The URL changed from elsewhere (Back, a link): show what it holds.
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = text;
      commitRef.current(text);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);
  return [text, setText] as const;
}
