/** A project's members and their roles; the owner invites people by email, changes roles, removes them. */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  changeRole,
  invite,
  listInvitations,
  listMembers,
  removeMember,
  revokeInvitation,
  type Invitation,
  type InvitationCreated,
  type Member,
  type Project,
  type Role,
} from "./api";
import { Confirm } from "./Confirm";
import { Field, FormError, TextField } from "./Field";
import { checkEmail, formErrors, userMessage, type FieldSpec, type FormErrors } from "./forms";
import { navigate } from "./route";

/** Every role, in rank order, with what it allows (tsc fails if the API gains a role without words). */
export const ROLES: Record<Role, { label: string; allows: string }> = {
  viewer: { label: "Viewer", allows: "sees the layouts, plans and results" },
  editor: { label: "Editor", allows: "also edits layouts and generates plans" },
  owner: { label: "Owner", allows: "also manages members and deletes the project" },
};
const ROLE_ORDER = Object.keys(ROLES) as Role[];

const MEMBER_FIELDS: Record<"email" | "role", FieldSpec> = {
  email: { label: "Email", messages: { string_too_short: "Enter the email of the person to invite." } },
  role: { label: "Role" },
};

/** `onOwnRoleChanged`: your own role changed (the page's rights change with it). */
export function Members({
  project,
  userId,
  onOwnRoleChanged,
}: {
  project: Project;
  userId: number;
  onOwnRoleChanged: () => void;
}) {
  const owner = project.role === "owner";
  const [members, setMembers] = useState<Member[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const reload = useCallback(() => {
    listMembers(project.id).then(
      (m) => {
        setMembers(m);
        setError(null);
      },
      (e: unknown) => setError(userMessage(e)),
    );
  }, [project.id]);
  useEffect(reload, [reload]);
  return (
    <section aria-labelledby="members-heading" data-testid="members">
      <h2 id="members-heading">Members</h2>
      {!owner && <p className="muted small">Only an owner of the project can invite members or change roles.</p>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {members && (
        <table className="list" aria-label="Members">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              {owner && <th aria-label="Actions" />}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow
                key={m.user_id}
                projectId={project.id}
                member={m}
                owner={owner}
                you={m.user_id === userId}
                onChanged={m.user_id === userId ? onOwnRoleChanged : reload}
                onRemove={() => setRemoving(m)}
              />
            ))}
          </tbody>
        </table>
      )}
      {owner && <Invitations projectId={project.id} onAccepted={reload} />}
      {removing && (
        <Confirm
          title={
            removing.user_id === userId
              ? `Leave “${project.name}”?`
              : `Remove ${removing.display_name || removing.email}?`
          }
          action={removing.user_id === userId ? "Leave project" : "Remove member"}
          onCancel={() => setRemoving(null)}
          onConfirm={async () => {
            try {
              await removeMember(project.id, removing);
            } catch (e) {
              throw new Error(userMessage(e), { cause: e });
            }
            setRemoving(null);
            if (removing.user_id === userId) navigate({ name: "projects" });
            else reload();
          }}
        >
          <p>
            {removing.user_id === userId
              ? `You will no longer see “${project.name}” unless an owner adds you again.`
              : `${removing.email} will no longer see “${project.name}”. Their API tokens stop working in this project.`}
          </p>
        </Confirm>
      )}
    </section>
  );
}

function MemberRow({
  projectId,
  member,
  owner,
  you,
  onChanged,
  onRemove,
}: {
  projectId: number;
  member: Member;
  owner: boolean;
  you: boolean;
  onChanged: () => void;
  onRemove: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <tr data-testid={`member-${member.email}`}>
      <td>
        {member.display_name}
        {you && <span className="muted small"> (you)</span>}
      </td>
      <td>{member.email}</td>
      <td>
        {owner ? (
          <>
            <select
              aria-label={`Role of ${member.email}`}
              value={member.role}
              disabled={busy}
              onChange={(e) => {
                setBusy(true);
                setError(null);
                changeRole(projectId, member, e.target.value as Role)
                  .then(onChanged, (err: unknown) => setError(userMessage(err)))
                  .finally(() => setBusy(false));
              }}
            >
              {ROLE_ORDER.map((r) => (
                <option key={r} value={r}>
                  {ROLES[r].label}
                </option>
              ))}
            </select>
            {error && (
              <p className="field-error" role="alert">
                {error}
              </p>
            )}
          </>
        ) : (
          ROLES[member.role].label
        )}
      </td>
      {owner && (
        <td className="actions">
          <button type="button" className="link danger-link" onClick={onRemove}>
            {you ? "Leave" : "Remove"}
          </button>
        </td>
      )}
    </tr>
  );
}

/** Invite by email: the answer is the same whether or not the address has an account here. The link
 * is shown once (no mail is sent from here), with pending invitations to revoke below. */
function Invitations({ projectId, onAccepted }: { projectId: number; onAccepted: () => void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [errors, setErrors] = useState<FormErrors<"email" | "role">>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const [pending, setPending] = useState<Invitation[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const reload = useCallback(() => {
    listInvitations(projectId).then(
      (items) => {
        setPending(items);
        setListError(null);
      },
      (e: unknown) => setListError(userMessage(e)),
    );
  }, [projectId]);
  useEffect(reload, [reload]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local = checkEmail(email);
    if (local) {
      setErrors({ fields: { email: local }, form: null });
      return;
    }
    setBusy(true);
    try {
      setCreated(await invite(projectId, email.trim(), role));
      setEmail("");
      setErrors({ fields: {}, form: null });
      reload();
      onAccepted();
    } catch (err) {
      setErrors(formErrors(err, MEMBER_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  const link = created ? `${location.origin}${created.accept_path}` : "";
  return (
    <>
      <form className="card form inline-form" onSubmit={submit} aria-label="Invite a member" noValidate>
        <TextField
          label="Invite by email"
          name="member-email"
          type="email"
          value={email}
          onChange={(v) => {
            setEmail(v);
            setErrors({ fields: {}, form: null });
          }}
          error={errors.fields.email}
          placeholder="colleague@example.com"
          hint="With or without a Loopline account: they accept by logging in or registering with this address."
        />
        <Field label="Role" error={errors.fields.role} hint={ROLES[role].allows}>
          {(a11y) => (
            <select {...a11y} name="member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLE_ORDER.map((r) => (
                <option key={r} value={r}>
                  {ROLES[r].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button className="primary" type="submit" disabled={busy}>
          Invite
        </button>
        <FormError text={errors.form} />
      </form>
      {created && (
        <div className="card secret" role="region" aria-label="New invitation" data-testid="invitation-link">
          <h3>
            Invitation for {created.email} as {ROLES[created.role].label}
          </h3>
          <p>
            Send this link to {created.email} yourself: it is shown only now (Loopline keeps only a fingerprint of it)
            and works until {new Date(created.expires_at).toLocaleDateString()}.
          </p>
          <div className="secret-row">
            <input
              className="mono"
              readOnly
              value={link}
              aria-label="Invitation link"
              onFocus={(e) => e.target.select()}
            />
            <button type="button" className="primary" onClick={() => void navigator.clipboard.writeText(link)}>
              Copy
            </button>
          </div>
          <button type="button" className="link" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {listError && (
        <p className="field-error" role="alert">
          {listError}
        </p>
      )}
      {pending.length > 0 && (
        <table className="list" aria-label="Pending invitations">
          <thead>
            <tr>
              <th>Invited</th>
              <th>Role</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {pending.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{ROLES[i.role].label}</td>
                <td>
                  {i.status === "expired" ? "expired" : `pending until ${new Date(i.expires_at).toLocaleDateString()}`}
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      void revokeInvitation(projectId, i).then(reload, (e: unknown) => setListError(userMessage(e)))
                    }
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
