/** A refusal shown under the field it names. */
import type { FormError } from "./SimulateDialogForm";

export function FieldError({ error, field }: { error: FormError | null; field: string }) {
  return error?.field === field ? (
    <span className="field-error" role="alert">
      {error.text}
    </span>
  ) : null;
}
