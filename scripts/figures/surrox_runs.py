"""Shared by the figure scripts: run a shipped case once into a work folder and read its summary."""
import json
import subprocess


def run_case(surrox, case_path, out, overrides=(), launcher=()):
    """Runs `[launcher] surrox run case_path -o out --set ...` (launcher e.g. mpirun -n 2) unless
    out/summary.json exists; returns the summary."""
    summary = out / "summary.json"
    if not summary.exists():
        command = [*launcher, str(surrox), "run", str(case_path), "-o", str(out), "--log-level",
                   "warn"]
        for o in overrides:
            command += ["--set", o]
        print("running:", " ".join(command), flush=True)
        subprocess.run(command, check=True)
    return json.loads(summary.read_text())
