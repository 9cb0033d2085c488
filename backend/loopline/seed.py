"""Seed the demo project (idempotent). `python -m loopline.seed`."""

from __future__ import annotations


def main() -> None:
    print("[loopline] no demo data defined yet")


if __name__ == "__main__":
    main()
