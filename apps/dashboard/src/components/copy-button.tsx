import { useState } from 'react';

/** Copies a value to the clipboard and says so in a polite live region. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [status, setStatus] = useState('');
  return (
    <span className="copy">
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setStatus('Copied.'),
            () => setStatus('Copying failed: select the text and copy it by hand.'),
          );
        }}
      >
        {label}
      </button>
      <span role="status" className="copy-status">
        {status}
      </span>
    </span>
  );
}
