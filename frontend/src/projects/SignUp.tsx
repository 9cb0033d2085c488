/** Create an account: email, name, password; weak passwords are refused with the reason under the field. */
import { useState, type FormEvent } from "react";
import { ApiError } from "../sync/http";
import { register, type Me } from "./api";
import { FormError, TextField } from "./Field";
import { checkEmail, formErrors, type FieldSpec, type FormErrors } from "./forms";
import { linkProps } from "./route";

type SignUpField = "email" | "display_name" | "password";

export const SIGN_UP_FIELDS: Record<SignUpField, FieldSpec> = {
  email: { label: "Email", messages: { string_pattern_mismatch: "Enter an email address like ada@example.com." } },
  display_name: { label: "Your name" },
  password: { label: "Password" },
};

/** Checks before sending (the API checks the same, and how easy the password is to guess). */
export function checkSignUp(v: Record<SignUpField, string>): Partial<Record<SignUpField, string>> {
  const out: Partial<Record<SignUpField, string>> = {};
  const email = checkEmail(v.email);
  if (email) out.email = email;
  if (v.display_name.length > 200) out.display_name = "Your name can have at most 200 characters.";
  if (v.password.length < 8) out.password = "Password needs at least 8 characters.";
  else if (v.password.length > 200) out.password = "Password can have at most 200 characters.";
  return out;
}

/** `initialEmail`: the address an invitation is for (the invitation page). */
export function SignUp({ onSignedUp, initialEmail = "" }: { onSignedUp: (me: Me) => void; initialEmail?: string }) {
  const [values, setValues] = useState<Record<SignUpField, string>>({
    email: initialEmail,
    display_name: "",
    password: "",
  });
  const [errors, setErrors] = useState<FormErrors<SignUpField>>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const set = (f: SignUpField) => (v: string) => {
    setValues((s) => ({ ...s, [f]: v }));
    setErrors((e) => ({ ...e, fields: { ...e.fields, [f]: undefined } }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = checkSignUp(values);
    if (Object.keys(local).length) {
      setErrors({ fields: local, form: null });
      return;
    }
    setBusy(true);
    setErrors({ fields: {}, form: null });
    try {
      onSignedUp(await register(values.email.trim(), values.password, values.display_name.trim()));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        // Registration does not say whether the email was taken; the login after it fails when it was.
        setErrors({
          fields: {},
          form: "This email and password do not open an account. If you already have one, log in instead.",
        });
      } else setErrors(formErrors(err, SIGN_UP_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="login-wrap">
      <form className="login" onSubmit={submit} aria-label="Create an account" noValidate>
        <h1>
          <span className="brand">Loopline</span>
        </h1>
        <p className="muted">Create your account</p>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set("email")}
          error={errors.fields.email}
        />
        <TextField
          label="Your name"
          name="display_name"
          autoComplete="name"
          value={values.display_name}
          onChange={set("display_name")}
          error={errors.fields.display_name}
          hint="Shown to the members of your projects (optional)."
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set("password")}
          error={errors.fields.password}
          hint="At least 8 characters and hard to guess: a few unrelated words work well."
        />
        <FormError text={errors.form} />
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Creating your account…" : "Create account"}
        </button>
        <p className="muted small">
          Already have an account? <a {...linkProps({ name: "projects" })}>Log in</a>
        </p>
      </form>
    </div>
  );
}
