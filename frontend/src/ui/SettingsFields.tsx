/** A facility settings form's fields: blank over the default's placeholder, errors under their field. */
import type { SettingSpec, SettingValue } from "./facilityForm";
import { initialText, placeholder } from "./facilityForm";

export function SettingsFields({
  specs,
  current,
  typed,
  setTyped,
  errors,
  testPrefix,
}: {
  specs: readonly SettingSpec[];
  current: Readonly<Record<string, SettingValue | undefined>>;
  typed: Readonly<Record<string, string>>;
  setTyped: (key: string, text: string) => void;
  errors: Readonly<Record<string, string>>;
  testPrefix: string;
}) {
  return (
    <>
      {specs.map((s) => {
        const v = current[s.key];
        const text = typed[s.key] ?? initialText(v);
        const error = errors[s.key];
        return (
          <label key={s.key} className={`field${error ? " has-error" : ""}`} data-field={s.key}>
            <span className="field-label">
              {s.label}
              {s.unit ? ` (${s.unit})` : ""}
            </span>
            {s.options ? (
              <select
                value={text}
                onChange={(e) => setTyped(s.key, e.target.value)}
                data-testid={`${testPrefix}-${s.key}`}
              >
                {s.nullable !== false && <option value="">{placeholder(v) || "default"}</option>}
                {s.options.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type="text"
                inputMode="decimal"
                value={text}
                placeholder={placeholder(v)}
                onChange={(e) => setTyped(s.key, e.target.value)}
                data-testid={`${testPrefix}-${s.key}`}
              />
            )}
            {error && (
              <span className="field-error" role="alert" data-testid={`error-${testPrefix}-${s.key}`}>
                {error}
              </span>
            )}
          </label>
        );
      })}
    </>
  );
}
