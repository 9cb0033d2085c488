/**
 * Form errors in the user's words. The API answers 4xx with `{detail: [{loc, msg, type?, ctx?}]}`:
 * `loc` is the path of the offending value (`["body", "width_m"]` from request validation,
 * `["password"]` from the domain). Each form names its fields; an error whose `loc` ends in one of
 * them goes next to that field, the rest is shown once above the buttons. Request-validation
 * messages are Pydantic's (`String should have at least 8 characters`): they are rewritten from
 * their `type` and `ctx` with the field's own label and unit; the domain's messages are already
 * written for people and only get a capital letter and a full stop.
 */
import { ApiError, type ErrorItem } from "../sync/http";

export interface FieldSpec {
  /** How the form labels the field, e.g. "Floor width". */
  label: string;
  /** Unit shown after numbers, e.g. "m". */
  unit?: string;
  /** Sentences for this field by Pydantic error type, e.g. `{string_pattern_mismatch: "Enter an email address."}`. */
  messages?: Partial<Record<string, string>>;
}

export type FormErrors<F extends string> = { fields: Partial<Record<F, string>>; form: string | null };

/** The items of a validation error as Pydantic writes them. */
interface DetailItem extends ErrorItem {
  type?: string;
  ctx?: Record<string, unknown>;
}

export function sentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function num(value: unknown, unit?: string): string {
  return `${String(value)}${unit ? ` ${unit}` : ""}`;
}

/** One error item as a sentence about the field `spec` (or about the form when there is none). */
export function describe(item: DetailItem, spec?: FieldSpec): string {
  // Without `ctx` (some answers leave it out), the bound is the last number in Pydantic's message.
  const bound = /(-?\d+(?:\.\d+)?)\D*$/.exec(item.msg)?.[1];
  const ctx: Record<string, unknown> = {
    ...Object.fromEntries(["gt", "ge", "lt", "le", "min_length", "max_length"].map((k) => [k, bound])),
    ...item.ctx,
  };
  const what = spec?.label ?? "This value";
  const own = item.type ? spec?.messages?.[item.type] : undefined;
  if (own) return own;
  switch (item.type) {
    case "missing":
      return `${what} is required.`;
    case "string_too_short":
      return Number(ctx.min_length) === 1
        ? `${what} cannot be empty.`
        : `${what} needs at least ${String(ctx.min_length)} characters.`;
    case "string_too_long":
      return `${what} can have at most ${String(ctx.max_length)} characters.`;
    case "string_pattern_mismatch":
      return `${what} is not in the expected form.`;
    case "greater_than":
      return `${what} must be more than ${num(ctx.gt, spec?.unit)}.`;
    case "greater_than_equal":
      return `${what} must be at least ${num(ctx.ge, spec?.unit)}.`;
    case "less_than":
      return `${what} must be less than ${num(ctx.lt, spec?.unit)}.`;
    case "less_than_equal":
      return `${what} can be at most ${num(ctx.le, spec?.unit)}.`;
    case "float_parsing":
    case "float_type":
    case "int_parsing":
    case "int_type":
    case "finite_number":
      return `${what} must be a number.`;
    case "json_invalid":
      return "The file is not valid JSON.";
    case "enum":
    case "literal_error":
      return `${what} must be one of the listed choices.`;
    case "too_short":
      return `${what} needs at least ${String(ctx.min_length)}.`;
    default: {
      // Domain messages are already for people; Pydantic's "Value error, …" prefix is not.
      const msg = item.msg.replace(/^(Value|Assertion) error, /, "");
      // "Input should be …" is about the field the form calls by its label.
      return sentence(spec ? msg.replace(/^Input should/, `${spec.label} should`) : msg);
    }
  }
}

/**
 * Sort an error's items onto the form's fields. `fields` maps the API's field names (the last
 * string in `loc`) to their specs; items about anything else become the form's general message.
 */
export function formErrors<F extends string>(error: unknown, fields: Record<F, FieldSpec>): FormErrors<F> {
  if (!(error instanceof ApiError)) {
    return { fields: {}, form: sentence(error instanceof Error ? error.message : String(error)) };
  }
  if (error.status === 0)
    return { fields: {}, form: "The server cannot be reached. Check the connection and try again." };
  if (error.status === 401) return { fields: {}, form: "Your session has ended. Log in again." };
  if (error.status === 403) return { fields: {}, form: "You do not have the rights to do this in this project." };
  if (error.status === 429) return { fields: {}, form: "Too many attempts. Wait a moment and try again." };
  if (error.status >= 500)
    return { fields: {}, form: "The server could not do this right now. Try again in a moment." };
  const out: FormErrors<F> = { fields: {}, form: null };
  const general: string[] = [];
  for (const item of error.items as DetailItem[]) {
    const name = [...item.loc].reverse().find((p): p is string => typeof p === "string" && p in fields) as
      F | undefined;
    if (name !== undefined) {
      if (!out.fields[name]) out.fields[name] = describe(item, fields[name]);
    } else {
      general.push(describe(item));
    }
  }
  if (Object.keys(out.fields).length === 0) {
    // Nothing about a field of this form: say what happened to the whole thing.
    if (error.status === 409 && (error.currentVersion !== null || error.items.some((i) => i.loc.includes("If-Match"))))
      return {
        fields: {},
        form: "This was changed meanwhile (in another tab or by another member). Reload and try again.",
      };
    if (error.status === 404)
      return { fields: {}, form: "This no longer exists, or you are no longer a member of its project." };
  }
  out.form = general.length ? [...new Set(general)].join(" ") : null;
  if (!out.form && Object.keys(out.fields).length === 0) out.form = sentence(error.message);
  return out;
}

/** Where a document's refusal points, in words: `["body","halls",0,"rows",2,"name"]` -> "hall 1, row 3". */
export function documentPlace(loc: readonly (string | number)[]): string {
  const words: Record<string, string> = { halls: "hall", rows: "row", racks: "rack", catalog: "catalog" };
  const parts: string[] = [];
  for (let i = 0; i < loc.length; i++) {
    const key = loc[i];
    const next = loc[i + 1];
    if (typeof key === "string" && key in words && typeof next === "number") {
      parts.push(`${words[key]} ${next + 1}`);
      i++;
    }
  }
  return parts.join(", ");
}

/** One sentence for an error that concerns no form field (a delete, a revoke). */
export function userMessage(error: unknown): string {
  return formErrors(error, {}).form ?? "That did not work. Try again.";
}

/** Checks in the browser, before sending: the same limits as the API's schema, same sentences. */
export function checkText(value: string, spec: FieldSpec, opts: { min?: number; max: number }): string | null {
  const t = value.trim();
  if ((opts.min ?? 0) > 0 && !t) return `${spec.label} is required.`;
  if (t.length > opts.max) return `${spec.label} can have at most ${opts.max} characters.`;
  return null;
}

/** A number typed in a field: its value, or the sentence saying why it is not acceptable. */
export function checkNumber(
  text: string,
  spec: FieldSpec,
  limits: { gt?: number; ge?: number; le?: number; integer?: boolean },
): { value: number } | { error: string } {
  const t = text.trim().replace(",", ".");
  if (!t) return { error: `${spec.label} is required.` };
  const value = Number(t);
  if (!Number.isFinite(value)) return { error: `${spec.label} must be a number.` };
  if (limits.integer && !Number.isInteger(value)) return { error: `${spec.label} must be a whole number.` };
  if (limits.gt !== undefined && !(value > limits.gt))
    return { error: `${spec.label} must be more than ${num(limits.gt, spec.unit)}.` };
  if (limits.ge !== undefined && !(value >= limits.ge))
    return { error: `${spec.label} must be at least ${num(limits.ge, spec.unit)}.` };
  if (limits.le !== undefined && !(value <= limits.le))
    return { error: `${spec.label} can be at most ${num(limits.le, spec.unit)}.` };
  return { value };
}

export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

export function checkEmail(value: string): string | null {
  const t = value.trim();
  if (!t) return "Email is required.";
  if (!EMAIL_PATTERN.test(t)) return "Enter an email address like ada@example.com.";
  return null;
}
