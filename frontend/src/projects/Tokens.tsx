/**
 * API tokens for programs: create one with the scopes it needs (its secret is shown once, with a
 * copy button), see when each was last used, revoke.
 */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { createToken, listTokens, revokeToken, type Scope, type Token, type TokenCreated } from "./api";
import { Confirm } from "./Confirm";
import { Field, FormError, TextField } from "./Field";
import { checkText, formErrors, userMessage, type FieldSpec, type FormErrors } from "./forms";

/** Every scope the API offers, in its words (a `Record` over the generated enum: tsc fails on a new one). */
export const SCOPES: Record<Scope, string> = {
  "layout:read": "Read projects, halls and layouts",
  "layout:write": "Change projects, halls and layouts",
  "wiring:read": "Read wiring plans, cables and exports",
  "wiring:write": "Generate and delete wiring plans",
  "bom:read": "Read bills of materials and price books",
  "price:write": "Change price books",
  "sim:read": "Read simulations and their results",
  "sim:write": "Run and cancel simulations",
  "tokens:read": "List this account's API tokens",
  "audit:read": "Read audit logs (projects' and this account's)",
};
const SCOPE_ORDER = Object.keys(SCOPES) as Scope[];

const TOKEN_FIELDS: Record<"name" | "scopes" | "expires_in_days", FieldSpec> = {
  name: { label: "Name" },
  scopes: { label: "Scopes", messages: { too_short: "Choose at least one scope." } },
  expires_in_days: { label: "Expiry" },
};

const EXPIRY: { days: number | null; label: string }[] = [
  { days: 30, label: "in 30 days" },
  { days: 90, label: "in 90 days" },
  { days: 365, label: "in a year" },
  { days: null, label: "never" },
];

export type TokenState = "active" | "revoked" | "expired";
export function tokenState(t: Token, now: Date = new Date()): TokenState {
  if (t.revoked_at) return "revoked";
  if (t.expires_at && new Date(t.expires_at) <= now) return "expired";
  return "active";
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function Tokens() {
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<TokenCreated | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const reload = useCallback(() => {
    listTokens().then(
      (t) => {
        setTokens([...t].sort((a, b) => b.id - a.id));
        setError(null);
      },
      (e: unknown) => setError(userMessage(e)),
    );
  }, []);
  useEffect(reload, [reload]);
  return (
    <div className="page" data-testid="tokens-page">
      <div className="page-head">
        <h1>API tokens</h1>
      </div>
      <p className="muted">
        Programs (scripts, procurement, NetBox sync) call the API with a token:{" "}
        <code>Authorization: Bearer &lt;token&gt;</code>. A token can do only what its scopes allow, and only in the
        projects you are a member of, with your role there.
      </p>
      {created && <NewSecret token={created} onDone={() => setCreated(null)} />}
      <NewToken
        onCreated={(t) => {
          setCreated(t);
          reload();
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {tokens && tokens.length === 0 && <p className="muted">You have no API tokens.</p>}
      {tokens && tokens.length > 0 && (
        <table className="list" aria-label="API tokens">
          <thead>
            <tr>
              <th>Name</th>
              <th>Starts with</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => {
              const state = tokenState(t);
              return (
                <tr key={t.id} data-testid={`token-${t.id}`} className={state === "active" ? "" : "inactive"}>
                  <td>{t.name}</td>
                  <td className="mono">{t.prefix}…</td>
                  <td>
                    {t.scopes.map((s) => (
                      <span key={s} className="chip" title={SCOPES[s]}>
                        {s}
                      </span>
                    ))}
                  </td>
                  <td className="muted">{when(t.created_at)}</td>
                  <td data-testid="last-used">{when(t.last_used_at)}</td>
                  <td className="muted">{t.expires_at ? when(t.expires_at) : "never"}</td>
                  <td data-testid="token-state">
                    {state === "active" ? "Active" : state === "revoked" ? `Revoked ${when(t.revoked_at)}` : "Expired"}
                  </td>
                  <td className="actions">
                    {state === "active" && (
                      <button type="button" className="link danger-link" onClick={() => setRevoking(t)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {revoking && (
        <Confirm
          title={`Revoke “${revoking.name}”?`}
          action="Revoke token"
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            try {
              await revokeToken(revoking);
            } catch (e) {
              throw new Error(userMessage(e), { cause: e });
            }
            setRevoking(null);
            if (created?.id === revoking.id) setCreated(null);
            reload();
          }}
        >
          <p>
            Programs using the token starting with {revoking.prefix} are refused from now on. This cannot be undone.
          </p>
        </Confirm>
      )}
    </div>
  );
}

function NewToken({ onCreated }: { onCreated: (t: TokenCreated) => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["layout:read"]);
  const [expiry, setExpiry] = useState<number | null>(90);
  const [errors, setErrors] = useState<FormErrors<"name" | "scopes" | "expires_in_days">>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const nameError = checkText(name, TOKEN_FIELDS.name, { min: 1, max: 200 });
    const scopesError = scopes.length ? null : "Choose at least one scope.";
    if (nameError || scopesError) {
      setErrors({ fields: { name: nameError ?? undefined, scopes: scopesError ?? undefined }, form: null });
      return;
    }
    setBusy(true);
    try {
      onCreated(
        await createToken(
          name.trim(),
          SCOPE_ORDER.filter((s) => scopes.includes(s)),
          expiry,
        ),
      );
      setName("");
      setErrors({ fields: {}, form: null });
    } catch (err) {
      setErrors(formErrors(err, TOKEN_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="New API token" noValidate>
      <h2>New token</h2>
      <TextField
        label="Name"
        name="token-name"
        value={name}
        onChange={setName}
        error={errors.fields.name}
        placeholder="e.g. procurement BOM export"
        hint="What the token is for, so you recognise it later."
      />
      <fieldset className={`scopes${errors.fields.scopes ? " has-error" : ""}`}>
        <legend className="field-label">Scopes</legend>
        {SCOPE_ORDER.map((s) => (
          <label key={s} className="check">
            <input
              type="checkbox"
              name="scope"
              value={s}
              checked={scopes.includes(s)}
              onChange={(e) => {
                setScopes((cur) => (e.target.checked ? [...cur, s] : cur.filter((x) => x !== s)));
                setErrors((er) => ({ ...er, fields: { ...er.fields, scopes: undefined } }));
              }}
            />
            <span className="mono">{s}</span> <span className="muted">{SCOPES[s]}</span>
          </label>
        ))}
        {errors.fields.scopes && (
          <p className="field-error" role="alert">
            {errors.fields.scopes}
          </p>
        )}
      </fieldset>
      <Field label="Expires" error={errors.fields.expires_in_days}>
        {(a11y) => (
          <select
            {...a11y}
            name="token-expiry"
            value={expiry === null ? "never" : String(expiry)}
            onChange={(e) => setExpiry(e.target.value === "never" ? null : Number(e.target.value))}
          >
            {EXPIRY.map((x) => (
              <option key={x.label} value={x.days === null ? "never" : String(x.days)}>
                {x.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormError text={errors.form} />
      <div className="form-actions">
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}

/** The secret, once: copy it now. */
function NewSecret({ token, onDone }: { token: TokenCreated; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = () => {
    navigator.clipboard.writeText(token.token).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <div className="card secret" role="region" aria-label="New token secret" data-testid="token-secret">
      <h2>Token “{token.name}” created</h2>
      <p>Copy it now: it is not shown again. Only its first characters are kept to recognise it.</p>
      <div className="secret-row">
        <input
          className="mono"
          readOnly
          value={token.token}
          aria-label="Token secret"
          onFocus={(e) => e.target.select()}
        />
        <button type="button" className="primary" onClick={copy}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
      </div>
      {copied === "failed" && (
        <p className="field-error" role="alert">
          The browser did not allow copying: select the token above and copy it by hand.
        </p>
      )}
      <button type="button" className="link" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
