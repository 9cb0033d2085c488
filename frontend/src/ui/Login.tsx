import { useState, type FormEvent } from "react";
import { ApiError, request } from "../sync/http";

export interface Me {
  user: { id: number; email: string; display_name: string };
}

export function Login({ onLogin }: { onLogin: (me: Me) => void }) {
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
      setError(err instanceof ApiError ? (err.status === 401 ? "Wrong email or password." : err.message) : String(err));
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
      </form>
    </div>
  );
}
