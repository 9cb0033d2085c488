/** A large panel over the viewport for wide tables and forms (compare, BOM, price book, simulations). */
import { useEffect, type ReactNode } from "react";

export function Dialog({
  title,
  onClose,
  children,
  testId,
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
  /** Extra class for a screen's own sizing (theme.css). */
  className?: string;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="plans-dialog-backdrop" onClick={onClose}>
      <div
        className={className ? `plans-dialog ${className}` : "plans-dialog"}
        role="dialog"
        aria-label={title}
        data-testid={testId}
        onClick={(e) => e.stopPropagation()}
      >
        <header className="plans-dialog-head">
          <h2>{title}</h2>
          <button type="button" className="link" onClick={onClose} aria-label="Close">
            Close ✕
          </button>
        </header>
        <div className="plans-dialog-body">{children}</div>
      </div>
    </div>
  );
}
