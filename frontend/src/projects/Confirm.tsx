/** A confirmation dialog for what cannot be undone (delete a project, remove a member, revoke a token). */
import { useEffect, useRef, useState, type ReactNode } from "react";

export function Confirm({
  title,
  children,
  action,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  /** The button's words, e.g. "Delete project". */
  action: string;
  /** Rejects with a message to show in the dialog when the action fails. */
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onCancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onCancel]);
  return (
    <div className="modal-backdrop">
      <div className="modal" role="alertdialog" aria-modal="true" aria-label={title}>
        <h2>{title}</h2>
        <div className="modal-body">{children}</div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="secondary" ref={cancel} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              setError(null);
              onConfirm().catch((e: unknown) => {
                setBusy(false);
                setError(e instanceof Error ? e.message : String(e));
              });
            }}
          >
            {action}
          </button>
        </div>
      </div>
    </div>
  );
}
