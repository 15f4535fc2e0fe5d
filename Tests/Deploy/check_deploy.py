#!/usr/bin/env python3
"""Checks the shipped sharded-run manifests (Deploy/) offline and runs their exact commands here.

1. Validates the Kubernetes Job against the Kubernetes schemas (kubernetes-validate, pinned to
   KUBERNETES_VERSION, strict: unknown fields refused) and the GitHub Actions workflow against the
   workflow schema (check-jsonschema --builtin-schema vendor.github-workflows).
2. Checks what the schemas cannot: the Job is Indexed with completions = SHARDS; the workflow's
   matrix is exactly 0..SHARDS-1; the three files share one seed and journey count.
3. Runs each file's own shard and merge command lines, read from the file (not copied here), as
   local processes: the Job's container args under `sh -c` with JOB_COMPLETION_INDEX set as
   Kubernetes sets it and its volume's mountPath mapped to a local folder; the workflow's `run`
   steps with `${{ matrix.shard }}` substituted for each matrix value; the local driver as is.
   Only JOURNEYS and RACE_SHARE are overridden (small, and 0 so that coverage.csv is deterministic).
4. Each merged report must equal the unsharded run of the same journeys: outcomes.csv and
   coverage.csv byte for byte, histograms.csv count for count. Merging without one shard, or with
   a shard whose run failed half way, must fail with exit status 2 and a message naming it.

Usage: check_deploy.py BENCH WORKDIR [--job FILE] [--workflow FILE] [--driver FILE]
Needs PyYAML, kubernetes-validate and check-jsonschema on PATH (Tests/Deploy/check_deploy.sh
installs them into a virtual environment: test dependencies, never runtime ones).
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys

import yaml

KUBERNETES_VERSION = "1.33.0"
JOURNEYS = "24000"
RACE_SHARE = "0"


class Failure(Exception):
    pass


def run(command, **options):
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **options)
    return result


def check(condition, message):
    if not condition:
        raise Failure(message)


def validate_schemas(job_file, workflow_file):
    result = run(["kubernetes-validate", "-k", KUBERNETES_VERSION, "--strict", job_file])
    check(result.returncode == 0, f"{job_file}: kubernetes-validate {KUBERNETES_VERSION}: "
          f"{(result.stdout + result.stderr).strip()}")
    result = run(["check-jsonschema", "--builtin-schema", "vendor.github-workflows", workflow_file])
    check(result.returncode == 0, f"{workflow_file}: check-jsonschema: {(result.stdout + result.stderr).strip()}")
    print(f"schemas: {job_file} (Kubernetes {KUBERNETES_VERSION}, strict) and {workflow_file} (GitHub Actions) valid")


def job_parts(job_file):
    with open(job_file) as handle:
        job = yaml.safe_load(handle)
    spec = job["spec"]
    pod = spec["template"]["spec"]
    check(len(pod["containers"]) == 1, f"{job_file}: expected one container")
    container = pod["containers"][0]
    env = {item["name"]: str(item["value"]) for item in container.get("env", [])}
    check(spec.get("completionMode") == "Indexed", f"{job_file}: completionMode must be Indexed "
          "(Kubernetes sets JOB_COMPLETION_INDEX only then)")
    check(str(spec.get("completions")) == env.get("SHARDS"),
          f"{job_file}: completions {spec.get('completions')} != SHARDS {env.get('SHARDS')}: a shard would never run")
    check(container.get("command") == ["sh", "-c"] and len(container.get("args", [])) == 1,
          f"{job_file}: the container must run one `sh -c` script")
    mounts = container.get("volumeMounts", [])
    check(len(mounts) == 1, f"{job_file}: expected one volume mount (the reports volume)")
    merge = job["metadata"].get("annotations", {}).get("deeplink-bench/merge")
    check(merge, f"{job_file}: the deeplink-bench/merge annotation (the merge command) is missing")
    return env, int(spec["completions"]), container["args"][0], mounts[0]["mountPath"], merge


def workflow_parts(workflow_file):
    with open(workflow_file) as handle:
        workflow = yaml.safe_load(handle)
    env = {name: str(value) for name, value in workflow.get("env", {}).items()}
    jobs = workflow["jobs"]
    matrix = jobs["shard"]["strategy"]["matrix"]["shard"]
    shards = int(env.get("SHARDS", "0"))
    check(matrix == list(range(shards)),
          f"{workflow_file}: matrix.shard {matrix} must be exactly 0..{shards - 1} (SHARDS={shards})")
    shard_steps = [step["run"] for step in jobs["shard"]["steps"] if "deeplink-bench run" in step.get("run", "")]
    merge_steps = [step["run"] for step in jobs["merge"]["steps"] if "deeplink-bench merge" in step.get("run", "")]
    check(len(shard_steps) == 1 and len(merge_steps) == 1,
          f"{workflow_file}: expected one `deeplink-bench run` step in job shard and one `merge` step in job merge")
    check("shard" in jobs["merge"].get("needs", []) or jobs["merge"].get("needs") == "shard",
          f"{workflow_file}: the merge job must need the shard job")
    return env, matrix, shard_steps[0], merge_steps[0]


def expand_expressions(script, values):
    def replace(match):
        name = match.group(1).strip()
        check(name in values, f"unexpected expression ${{{{ {name} }}}} in {script!r}")
        return values[name]
    return re.sub(r"\$\{\{([^}]*)\}\}", replace, script)


def shell(script, env, cwd, what):
    result = run(["sh", "-c", script], env=env, cwd=cwd)
    check(result.returncode == 0, f"{what} failed (exit {result.returncode}): {script}\n{result.stderr.strip()}")
    return result


def local_env(bench, overrides):
    env = dict(os.environ)
    env.update(overrides)
    # `deeplink-bench` on PATH, as in the image.
    env["PATH"] = os.path.dirname(os.path.abspath(bench)) + os.pathsep + env.get("PATH", "")
    return env


def histogram_counts(path):
    with open(path, newline="") as handle:
        return {(row["strategy"], row["metric"]): row["count"] for row in csv.DictReader(handle)}


def compare(merged, reference, what):
    for name in ("outcomes.csv", "coverage.csv"):
        with open(os.path.join(merged, name), "rb") as a, open(os.path.join(reference, name), "rb") as b:
            check(a.read() == b.read(), f"{what}: merged {name} differs from the unsharded run's")
    merged_counts = histogram_counts(os.path.join(merged, "histograms.csv"))
    reference_counts = histogram_counts(os.path.join(reference, "histograms.csv"))
    check(merged_counts == reference_counts, f"{what}: merged histogram counts differ from the unsharded run's")
    print(f"{what}: merged report equals the unsharded run (outcomes.csv, coverage.csv, histogram counts)")


def check_refusals(bench, shard_dirs, work, what):
    """Merging without the last shard, or with a shard cut short, must fail with a named error."""
    partial = os.path.join(work, "refusal-missing")
    result = run([bench, "merge", "--no-report", "--out", partial] + shard_dirs[:-1])
    missing = f"{len(shard_dirs) - 1}/{len(shard_dirs)}"
    check(result.returncode == 2 and missing in result.stderr,
          f"{what}: merge without shard {missing} exited {result.returncode}: {result.stderr.strip()}")
    broken = os.path.join(work, "refusal-broken-shard")
    shutil.copytree(shard_dirs[0], broken)
    os.remove(os.path.join(broken, "outcomes.csv"))
    result = run([bench, "merge", "--no-report", "--out", os.path.join(work, "refusal-broken")]
                 + [broken] + shard_dirs[1:])
    check(result.returncode == 2 and "outcomes.csv" in result.stderr,
          f"{what}: merge with a shard missing outcomes.csv exited {result.returncode}: {result.stderr.strip()}")
    print(f"{what}: a missing shard and a half-written shard are refused (exit 2, named)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bench")
    parser.add_argument("work")
    parser.add_argument("--job", default="Deploy/kubernetes/indexed-job.yaml")
    parser.add_argument("--workflow", default="Deploy/github/sharded-bench.yml")
    parser.add_argument("--driver", default="Deploy/local/run-shards.sh")
    arguments = parser.parse_args()
    bench = os.path.abspath(arguments.bench)
    work = os.path.abspath(arguments.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        validate_schemas(arguments.job, arguments.workflow)
        job_env, completions, job_script, mount_path, job_merge = job_parts(arguments.job)
        flow_env, matrix, flow_run, flow_merge = workflow_parts(arguments.workflow)
        seed = job_env.get("SEED")
        check(seed is not None and seed == flow_env.get("SEED"), "the Job and the workflow must use one SEED")
        overrides = {"JOURNEYS": JOURNEYS, "RACE_SHARE": RACE_SHARE}

        reference = os.path.join(work, "unsharded")
        result = run([bench, "run", "--journeys", JOURNEYS, "--seed", seed, "--race-share", RACE_SHARE,
                      "--quiet", "--no-report", "--out", reference])
        check(result.returncode == 0, f"unsharded run failed: {result.stderr.strip()}")

        # The Job: every index as its pod would run it, the volume mapped to a local folder.
        volume = os.path.join(work, "job-volume")
        os.makedirs(volume)
        for index in range(completions):
            env = local_env(bench, {**job_env, **overrides, "JOB_COMPLETION_INDEX": str(index)})
            shell(job_script.replace(mount_path, volume), env, work, f"Job pod {index}")
        shell(job_merge.replace(mount_path, volume), local_env(bench, {}), work, "Job merge")
        compare(os.path.join(volume, "merged"), reference, arguments.job)
        check_refusals(bench, [os.path.join(volume, f"shard-{index}") for index in range(completions)],
                       work, arguments.job)

        # The workflow: each matrix job in a checkout with the release binary, artifacts downloaded
        # into folders named after them (as actions/download-artifact does).
        checkout = os.path.join(work, "workflow-checkout")
        os.makedirs(os.path.join(checkout, ".build", "release"))
        os.symlink(bench, os.path.join(checkout, ".build", "release", "deeplink-bench"))
        for value in matrix:
            script = expand_expressions(flow_run, {"matrix.shard": str(value)})
            shell(script, local_env(bench, {**flow_env, **overrides}), checkout, f"workflow shard {value}")
        shell(expand_expressions(flow_merge, {}), local_env(bench, {}), checkout, "workflow merge")
        compare(os.path.join(checkout, "merged"), reference, arguments.workflow)

        # The local driver.
        driver_out = os.path.join(work, "driver")
        env = local_env(bench, {**overrides, "SHARDS": job_env["SHARDS"], "SEED": seed, "OUT": driver_out,
                                "BENCH": bench, "PARALLEL": "2"})
        shell(os.path.abspath(arguments.driver), env, work, "local driver")
        compare(os.path.join(driver_out, "merged"), reference, arguments.driver)
    except Failure as failure:
        print(f"check_deploy: FAIL: {failure}", file=sys.stderr)
        return 1
    print("check_deploy: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
