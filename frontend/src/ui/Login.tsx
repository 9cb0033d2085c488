import { useState, type FormEvent } from "react";
import { ApiError, request } from "../sync/http";

export interface Me {
  user: { id: number; email: string; display_name: string };
}

/** The login form; `signUpHref` / `onSignUp` lead to account creation (the app's router owns the address). */
export function Login({
  onLogin,
  signUpHref,
  onSignUp,
}: {
  onLogin: (me: Me) => void;
  signUpHref: string;
  onSignUp: () => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await request("POST", "/auth/login", { body: { email, password } });
      onLogin(await request<Me>("GET", "/auth/me"));
    } catch (err) {
      setError(
        !(err instanceof ApiError)
          ? String(err)
          : err.status === 401
            ? "Wrong email or password."
            : err.status === 429
              ? "Too many failed attempts. Wait a little and try again."
              : err.status === 0
                ? "The server cannot be reached. Check the connection and try again."
                : err.message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="login-wrap">
      <form className="login" onSubmit={submit} aria-label="Log in">
        <h1>
          <span className="brand">Loopline</span>
        </h1>
        <p className="muted">Datacenter network planning</p>
        <label className="field">
          <span className="field-label">Email</span>
          <input
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span className="field-label">Password</span>
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
        <p className="muted small">
          New to Loopline?{" "}
          <a
            href={signUpHref}
            onClick={(e) => {
              if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
              e.preventDefault();
              onSignUp();
            }}
          >
            Create an account
          </a>
        </p>
      </form>
    </div>
  );
}
