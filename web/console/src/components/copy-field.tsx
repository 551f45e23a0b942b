import { useEffect, useRef, useState } from 'preact/hooks';

/** A secret shown once: a read-only field with its label, and a "Copy" button. */
export function CopyField({ id, label, value, note }: { id: string; label: string; value: string; note: string }) {
  const [copied, setCopied] = useState('');
  const input = useRef<HTMLInputElement>(null);
  // The secret is what the user came for: focus it (selected), so it is announced and ready to copy.
  useEffect(() => input.current?.focus(), [value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      // Clipboard access needs a secure context; select the text so Ctrl+C works instead.
      input.current?.select();
      setCopied('Selected: press Ctrl+C to copy.');
    }
  };
  return (
    <div class="secret">
      <label for={id}>{label}</label>
      <div class="row">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          spellcheck={false}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p class="muted" role="status">
        {copied || note}
      </p>
    </div>
  );
}
