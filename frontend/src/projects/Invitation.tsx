/**
 * `/invite#<secret>`: the page an invitation link opens. Logged out, it says which project and role
 * the link offers and to which address, with the sign-up form for that address (or the login);
 * once logged in with it, the invitation is accepted and the project opens. The secret is read from
 * the fragment (never sent in an address) and kept in this tab's sessionStorage, so a reload or the
 * detour through sign-up keeps it.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ApiError } from "../sync/http";
import { acceptInvitation, previewInvitation, type InvitationPreview, type Me } from "./api";
import { userMessage } from "./forms";
import { ROLES } from "./Members";
import { navigate } from "./route";
import { SignUp } from "./SignUp";

const KEY = "loopline:invitation";

/** The API's own sentence for a link it refuses (it names what to do), else the usual wording. */
function refusal(e: unknown): string {
  return e instanceof ApiError && (e.status === 403 || e.status === 404) ? e.message : userMessage(e);
}

/** The link's secret: from the fragment on arrival (then removed from the bar), else this tab's copy. */
export function invitationSecret(): string | null {
  const fromHash = location.hash.replace(/^#/, "").trim();
  if (fromHash) {
    sessionStorage.setItem(KEY, fromHash);
    history.replaceState(null, "", location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(KEY);
}

function usePreview(secret: string | null): { preview: InvitationPreview | null; error: string | null } {
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  const [error, setError] = useState<string | null>(secret ? null : "This invitation link is incomplete.");
  useEffect(() => {
    if (!secret) return;
    previewInvitation(secret).then(setPreview, (e: unknown) => setError(refusal(e)));
  }, [secret]);
  return { preview, error };
}

function Offer({ preview }: { preview: InvitationPreview }) {
  return (
    <p data-testid="invitation-offer">
      You are invited to <strong>{preview.project_name}</strong> as <strong>{ROLES[preview.role].label}</strong> (
      {ROLES[preview.role].allows}). The invitation is for <strong>{preview.email}</strong>.
    </p>
  );
}

/** Logged out: sign up (or log in) with the invited address. `login(back)`: the app's login form
 * (a floor above this one), with a way back to signing up. */
export function InvitationWelcome({
  onLoggedIn,
  login,
}: {
  onLoggedIn: (me: Me) => void;
  login: (back: () => void) => ReactNode;
}) {
  const [secret] = useState(invitationSecret);
  const { preview, error } = usePreview(secret);
  const [haveAccount, setHaveAccount] = useState(false);
  return (
    <div className="page narrow" data-testid="invitation">
      <h1>Invitation</h1>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <>
          <Offer preview={preview} />
          {haveAccount ? (
            login(() => setHaveAccount(false))
          ) : (
            <>
              <SignUp onSignedUp={onLoggedIn} initialEmail={preview.email} />
              <p className="muted small center">
                Already have an account with this address?{" "}
                <button type="button" className="link" onClick={() => setHaveAccount(true)}>
                  Log in to accept
                </button>
              </p>
            </>
          )}
        </>
      )}
    </div>
  );
}

/** Logged in: accept at once, then open the project. */
export function InvitationAccept({ email }: { email: string }) {
  const [secret] = useState(invitationSecret);
  const [error, setError] = useState<string | null>(secret ? null : "This invitation link is incomplete.");
  const sent = useRef(false);
  useEffect(() => {
    if (!secret || sent.current) return;
    sent.current = true; // once, though React runs effects twice in development
    acceptInvitation(secret).then(
      (ok) => {
        sessionStorage.removeItem(KEY);
        navigate({ name: "project", projectId: ok.project_id }, { replace: true });
      },
      (e: unknown) => {
        if (!(e instanceof ApiError && e.status === 403)) sessionStorage.removeItem(KEY);
        setError(refusal(e));
      },
    );
  }, [secret]);
  return (
    <div className="page narrow" data-testid="invitation">
      <h1>Invitation</h1>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p className="muted">Accepting the invitation as {email}…</p>
      )}
    </div>
  );
}
