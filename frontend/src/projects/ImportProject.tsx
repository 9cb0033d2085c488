/**
 * Import a project document (the file Export downloads) as a new project. Small documents are
 * imported in the request (201); a big one becomes a background job (202): its progress is polled
 * and shown until the project exists.
 */
import { useRef, useState } from "react";
import { getImport, importProject, type ImportJob } from "./api";
import { describe, documentPlace, sentence, userMessage } from "./forms";
import { HALL_FIELDS, type HallField } from "./hallForm";
import { ApiError, type ErrorItem } from "../sync/http";

/** What the API said about a refused document, a sentence per problem (at most five). */
export function importProblems(error: unknown): string[] {
  const items =
    error instanceof ImportFailed
      ? error.items
      : error instanceof ApiError && error.status === 422
        ? error.items
        : null;
  if (!items) return [userMessage(error)];
  if (!items.length) return ["The import failed on the server. Try again; if it fails again, the file may be damaged."];
  const out = (items as (ErrorItem & { type?: string })[]).map((item) => {
    const place = documentPlace(item.loc);
    // A hall's own values have the words of the new-hall form.
    const key = item.loc[item.loc.length - 1];
    const spec =
      place.startsWith("hall") && !place.includes(",") && typeof key === "string" && key in HALL_FIELDS
        ? HALL_FIELDS[key as HallField]
        : undefined;
    return place ? `${sentence(place).slice(0, -1)}: ${describe(item, spec)}` : describe(item, spec);
  });
  return out.length > 5 ? [...out.slice(0, 5), `…and ${out.length - 5} more.`] : out;
}

const POLL_MS = 700;

/** A document path as the job reports it (`halls[3].rows[0].name`) as a location (`["halls", 3, "rows", 0, "name"]`). */
export function pathLoc(field: string): (string | number)[] {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : (m[1] ?? "")));
}

/** Follow an import job until it ends; `progress` gets 0..1. Resolves with the new project's id. */
async function followJob(job: ImportJob, progress: (share: number) => void): Promise<number> {
  let current = job;
  for (;;) {
    progress(current.progress);
    if (current.status === "succeeded" && current.project_id) return current.project_id;
    if (current.status === "failed" || current.status === "cancelled") {
      throw new ImportFailed(
        (current.errors ?? []).map((e) => ({ loc: pathLoc(e.field), field: e.field, msg: e.msg })),
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
    current = await getImport(job.id);
  }
}

/** An import job that failed: its errors, each naming a field of the document. */
class ImportFailed extends Error {
  constructor(readonly items: ErrorItem[]) {
    super("the import failed");
  }
}

export function ImportButton({ onImported }: { onImported: (projectId: number) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const busy = progress !== undefined;
  const run = async (file: File) => {
    setProblems([]);
    // A quick look at the start of the file: a wrong file is said at once, without sending it.
    const head = await file.slice(0, 4096).text();
    if (!/^\s*\{/.test(head)) {
      setProblems([`${file.name} is not a Loopline project export (it is not JSON).`]);
      return;
    }
    const format = /"format"\s*:\s*"([^"]*)"/.exec(head);
    if (format ? format[1] !== "loopline.project" : !head.includes('"project"')) {
      setProblems([`${file.name} is not a Loopline project export.`]);
      return;
    }
    setProgress(null);
    try {
      const answer = await importProject(file);
      const projectId = "done" in answer ? answer.done.project_id : await followJob(answer.job, setProgress);
      setProgress(undefined);
      onImported(projectId);
    } catch (e) {
      setProgress(undefined);
      setProblems(importProblems(e));
    }
  };
  return (
    <div className="import">
      <button type="button" className="secondary" disabled={busy} onClick={() => input.current?.click()}>
        Import project…
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) void run(file);
        }}
      />
      {busy && (
        <div className="import-progress" role="status" aria-live="polite">
          <span className="small muted">Importing…</span>
          <progress max={1} value={progress ?? undefined} aria-label="Import progress" />
          {progress !== null && <span className="small">{Math.round(progress * 100)} %</span>}
        </div>
      )}
      {problems.length > 0 && (
        <div className="field-error import-problems" role="alert">
          <p>The file could not be imported:</p>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
