# One image for the API and the worker: Python app + built editor + compiled engine.

FROM rust:1-bookworm AS engine
WORKDIR /src/sim-engine
COPY sim-engine/ ./
RUN cargo build --release --locked

FROM node:20-bookworm AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
COPY backend/ backend/
COPY worker/ worker/
RUN pip install --no-cache-dir -e backend -e worker
COPY alembic.ini ./
COPY migrations/ migrations/
COPY --from=engine /src/sim-engine/target/release/loopline-sim /usr/local/bin/loopline-sim
COPY --from=frontend /src/frontend/dist frontend/dist
WORKDIR /app/worker
RUN useradd --create-home loopline
USER loopline
WORKDIR /app
