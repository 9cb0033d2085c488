/** Form pieces shared by the account and project screens: a labelled field with its error beside it. */
import { useId, type InputHTMLAttributes, type ReactNode } from "react";

export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined }) => ReactNode;
}) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": described })}
      {hint && !error && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A text input inside a `Field`. */
export function TextField({
  label,
  error,
  hint,
  value,
  onChange,
  ...input
}: {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(a11y) => <input {...input} {...a11y} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/** The message about the whole form (not one field), shown above its buttons. */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="field-error form-error" role="alert">
      {text}
    </p>
  );
}
