/**
 * Import a project document (the file Export downloads) as a new project. Small documents are
 * imported in the request (201); a big one becomes a background job (202): its progress is polled
 * and shown until the project exists.
 */
import { useRef, useState } from "react";
import { importProject, isImportResult, type ImportJob } from "./api";
import { describe, documentPlace, sentence, userMessage } from "./forms";
import { ApiError, request, type ErrorItem } from "../sync/http";

/** What the API said about a refused document, a sentence per problem (at most five). */
export function importProblems(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.status !== 422) return [userMessage(error)];
  const out = (error.items as (ErrorItem & { type?: string })[]).map((item) => {
    const place = documentPlace(item.loc);
    return place ? `${sentence(place).slice(0, -1)}: ${describe(item)}` : describe(item);
  });
  return out.length > 5 ? [...out.slice(0, 5), `…and ${out.length - 5} more.`] : out;
}

const POLL_MS = 500;

/** Follow an import job until it is done; `progress` gets 0..1 (or null when the job does not say). */
async function followJob(job: ImportJob, progress: (share: number | null) => void): Promise<number> {
  let current = job;
  for (;;) {
    progress(typeof current.progress === "number" ? current.progress : null);
    const projectId = current.result?.project_id ?? current.project_id;
    if (current.status === "succeeded" || current.status === "done") {
      if (projectId) return projectId;
    }
    if (current.status === "failed" || current.status === "cancelled")
      throw new Error(current.error ? `The import failed: ${current.error}` : "The import failed.");
    await new Promise((r) => setTimeout(r, POLL_MS));
    current = await request<ImportJob>("GET", `/projects/import/${job.id}`);
  }
}

export function ImportButton({ onImported }: { onImported: (projectId: number) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null | undefined>(undefined);
  const busy = progress !== undefined;
  const run = async (file: File) => {
    setProblems([]);
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      setProblems([`${file.name} is not a Loopline project export (it is not JSON).`]);
      return;
    }
    if (typeof doc !== "object" || doc === null || (doc as { format?: unknown }).format !== "loopline.project") {
      setProblems([`${file.name} is not a Loopline project export.`]);
      return;
    }
    setProgress(null);
    try {
      const answer = await importProject(doc);
      const projectId = isImportResult(answer) ? answer.project_id : await followJob(answer, setProgress);
      setProgress(undefined);
      onImported(projectId);
    } catch (e) {
      setProgress(undefined);
      setProblems(e instanceof ApiError ? importProblems(e) : [e instanceof Error ? e.message : String(e)]);
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
