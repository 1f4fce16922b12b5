"""hertz2d.calibration.runs.security against a TLS scheduler: a sweep through ``tls://`` with the
certificates in dask's environment variables gives the rows of ``--jobs 1``; a client without the
cluster's certificates is refused; a ``tls://`` address without certificates, or with certificates
that do not load, is one line and exit 2 before the scheduler is contacted; a plain TCP address
beyond loopback is one warning line.

The cluster is a one-worker ``LocalCluster`` on ``tls://127.0.0.1``, its certificate one of
``Security.temporary()`` (self-signed, so it is also the CA), started once for the module.
"""
import asyncio
import json
import logging
import os
import signal
import ssl
import subprocess
import sys
from pathlib import Path

import dask
import pandas as pd
import pytest
from distributed import LocalCluster
from distributed.comm import connect
from distributed.security import Security

from hertz2d.calibration.cli import main
from hertz2d.calibration.runs import cluster
from hertz2d.calibration.runs.executor_choice import SCHEDULER_VARIABLE
from hertz2d.calibration.runs.security import (CLIENT_TLS_SETTINGS, environment_variable,
                                       scheduler_security)
from hertz2d.checks import InputError

#: level-0 half-round cases on the a/R x nu grid: 2 meshes (one task each), 8 cases
SPEC = """
[base]
R = 0.5
a = 0.025
E = 10e9
nu = 0.25
T = 1e5
level = 0
supports = ["clamped", "symmetric"]

[grid]
a_over_R = [0.02, 0.05]
nu = [0.1, 0.3]
"""
#: the columns that say when and how a row was made, not what it is
CIRCUMSTANCES = ["seconds", "reused"]
#: an address of no loopback interface (RFC 5737's documentation range)
BEYOND_LOOPBACK = "192.0.2.1"


@pytest.fixture(scope="module", autouse=True)
def python_sigpipe_disposition():
    """Ignore SIGPIPE again, as Python does from the start: ``gmsh.initialize()`` (any earlier
    test that meshed in this process) restores the C default, termination, and the TLS scheduler
    lives in this process, so its first write to a connection a client has closed would kill the
    test run instead of failing with EPIPE."""
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory) -> dict[str, str]:
    """PEM files: the cluster's certificate (its own CA) and key, a key of another cluster, a
    certificate and key the cluster never signed, a file that is not PEM."""
    folder = tmp_path_factory.mktemp("tls")
    ours, theirs = Security.temporary(), Security.temporary()
    texts = {"cert": ours.tls_client_cert, "key": ours.tls_client_key,
             "other-cert": theirs.tls_client_cert, "other-key": theirs.tls_client_key,
             "not-pem": "a certificate, honestly\n"}
    for name, text in texts.items():
        (folder / f"{name}.pem").write_text(text)
    return {name: str(folder / f"{name}.pem") for name in texts}


def _settings(ca: str | None, cert: str | None, key: str | None) -> dict[str, str]:
    """dask's configuration of the client's TLS files (unset when None)."""
    values = {"tls_ca_file": ca, "tls_client_cert": cert, "tls_client_key": key}
    return {CLIENT_TLS_SETTINGS[attribute]: value for attribute, value in values.items()}


@pytest.fixture(scope="module")
def tls_scheduler(certificates):
    """A one-worker LocalCluster that speaks TLS only, with the module's certificates."""
    ca, cert, key = certificates["cert"], certificates["cert"], certificates["key"]
    security = Security(require_encryption=True, tls_ca_file=ca,
                        tls_scheduler_cert=cert, tls_scheduler_key=key,
                        tls_worker_cert=cert, tls_worker_key=key,
                        tls_client_cert=cert, tls_client_key=key)
    with LocalCluster(n_workers=1, processes=True, threads_per_worker=1, protocol="tls://",
                      host="127.0.0.1", security=security, dashboard_address=":0") as local:
        yield local


def _tasks_computed(scheduler) -> int:
    """Tasks of the sweeps' FEM function (``solve_group``) whose result the scheduler has had."""
    prefix = scheduler.task_prefixes.get("solve_group")
    return 0 if prefix is None else prefix.state_counts["memory"]


def _sweep(folder: Path, *where: str, **environment: str) -> pd.DataFrame:
    """``hertz2d sweep`` of :data:`SPEC` in a fresh process (its own case store in ``folder``),
    as a user runs it: its summary checked, its table (without :data:`CIRCUMSTANCES`)."""
    folder.mkdir()
    spec = folder / "spec.toml"
    spec.write_text(SPEC)
    env = {**os.environ, "HERTZ2D_CACHE": str(folder / "cache"), **environment}
    run = subprocess.run([sys.executable, "-m", "hertz2d.calibration", "sweep", "--spec", str(spec),
                          *where, "--results", str(folder / "results"), "--json"],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["rows"] == 8 and summary["reused"] == 0 and summary["failed"] == 0
    table = pd.read_csv(folder / "results" / "penalty" / "grid.csv", keep_default_na=False)
    return table.drop(columns=CIRCUMSTANCES)


def test_a_sweep_through_tls_gives_the_rows_of_jobs_1(tls_scheduler, certificates, tmp_path):
    serial = _sweep(tmp_path / "serial", "--jobs", "1")
    # configured as docs/cluster.md says: dask's environment variables
    tls_files = _settings(certificates["cert"], certificates["cert"], certificates["key"])
    variables = {**{environment_variable(setting): path for setting, path in tls_files.items()},
                 environment_variable("distributed.comm.require-encryption"): "True"}
    tls = _sweep(tmp_path / "tls", "--scheduler", tls_scheduler.scheduler_address, **variables)
    assert _tasks_computed(tls_scheduler.scheduler) == 2  # one per mesh, through this scheduler
    pd.testing.assert_frame_equal(tls, serial, check_exact=True)


async def _open_and_close(address: str, connection_args: dict) -> None:
    comm = await connect(address, timeout=2, **connection_args)
    await comm.close()


def _connects(address: str, **connection_args) -> bool:
    """Whether dask's client side gets a connection to ``address`` within two seconds."""
    try:
        asyncio.run(_open_and_close(address, connection_args))
    except OSError:  # refused: dask's CommClosedError, or a timeout
        return False
    return True


def test_a_client_without_the_certificates_is_refused(tls_scheduler, certificates):
    address = tls_scheduler.scheduler_address
    ours = Security(tls_ca_file=certificates["cert"], tls_client_cert=certificates["cert"],
                    tls_client_key=certificates["key"])
    assert _connects(address, **ours.get_connection_args("client"))
    trusting = ssl.create_default_context(cafile=certificates["cert"])  # no certificate of its own
    trusting.check_hostname = False
    assert not _connects(address, ssl_context=trusting)
    assert not _connects(address.replace("tls://", "tcp://"))  # no TLS at all


def test_hertz2d_with_certificates_the_cluster_never_signed_is_refused(tls_scheduler,
                                                                       certificates, tmp_path,
                                                                       monkeypatch, capsys):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
    address = tls_scheduler.scheduler_address
    # trusts the cluster's CA, shows a certificate of another CA: the scheduler says no
    with dask.config.set(_settings(certificates["cert"], certificates["other-cert"],
                                   certificates["other-key"])):
        assert main(["sweep", "--quick", "--scheduler", address, "--results",
                     str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hertz2d sweep: error: ")
    assert f"scheduler='{address}': cannot reach a dask scheduler there" in err
    assert not (tmp_path / "penalty").exists()


@pytest.mark.parametrize("files, address, says", [
    ((None, None, None), "tls://{host}",
     "needs the client's TLS certificates in dask's configuration; not set: "
     "distributed.comm.tls.ca-file, distributed.comm.tls.client.cert "
     "(e.g. $DASK_DISTRIBUTED__COMM__TLS__CA_FILE, $DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT)"),
    (("cert", None, None), "tls://{host}", "not set: distributed.comm.tls.client.cert (e.g."),
    (("missing", "cert", "key"), "tls://{host}",
     "distributed.comm.tls.ca-file='{missing}': No such file or directory"),
    (("cert", "not-pem", "key"), "tls://{host}",
     "distributed.comm.tls.client.cert='{not-pem}' is not a PEM certificate "
     "(no '-----BEGIN CERTIFICATE-----' line)"),
    (("cert", "cert", "not-pem"), "tls://{host}",
     "distributed.comm.tls.client.key='{not-pem}' is not a PEM private key "
     "(no '-----BEGIN PRIVATE KEY-----' line)"),
    (("cert", "cert", None), "tls://{host}",
     "distributed.comm.tls.client.cert='{cert}' holds no private key and "
     "distributed.comm.tls.client.key is not set"),
    (("cert", "cert", "other-key"), "tls://{host}",
     "the TLS certificates in dask's configuration do not load (distributed.comm.tls.ca-file="
     "'{cert}', distributed.comm.tls.client.cert='{cert}', distributed.comm.tls.client.key="
     "'{other-key}'): [X509: KEY_VALUES_MISMATCH] key values mismatch"),
    (("cert", "cert", "key"), "tcp://{host}", "is plain TCP and dask's configuration requires "
     "encryption (distributed.comm.require-encryption); give a tls:// address"),
])
@pytest.mark.parametrize("given", ["--scheduler", SCHEDULER_VARIABLE])
def test_bad_tls_settings_exit_2_in_one_line_before_the_scheduler_is_contacted(
        files, address, says, given, tls_scheduler, certificates, tmp_path, monkeypatch, capsys):
    contacted = []
    monkeypatch.setattr(cluster, "connect", lambda *args, **kwargs: contacted.append(args))
    address = address.format(host=tls_scheduler.scheduler_address.removeprefix("tls://"))
    paths = {**certificates, "missing": str(tmp_path / "missing.pem")}
    settings = _settings(*(paths[file] if file else None for file in files))
    settings["distributed.comm.require-encryption"] = True
    where = ["--scheduler", address] if given == "--scheduler" else []
    monkeypatch.setenv(SCHEDULER_VARIABLE, address)
    with dask.config.set(settings):
        assert main(["sweep", "--quick", *where, "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hertz2d sweep: error: ")
    named = "scheduler" if given == "--scheduler" else SCHEDULER_VARIABLE
    assert f"{named}='{address}'" in err and says.format_map(paths) in err
    assert not contacted and not (tmp_path / "penalty").exists()


def test_the_cluster_page_names_the_environment_variables_dask_reads():
    """The sweep above runs with these variables; the cluster page must name the same ones."""
    page = (Path(__file__).parents[1] / "docs" / "cluster.md").read_text()
    for setting in [*CLIENT_TLS_SETTINGS.values(), "distributed.comm.require-encryption"]:
        assert environment_variable(setting) in page, setting


def test_certificates_given_as_pem_text_load():
    """dask also takes the PEM text itself for a file (as Security.temporary() does)."""
    temporary = Security.temporary()
    with dask.config.set(_settings(temporary.tls_ca_file, temporary.tls_client_cert,
                                   temporary.tls_client_key)):
        security = scheduler_security("tls://127.0.0.1:8786")
    assert security.get_connection_args("client")["ssl_context"] is not None
    with dask.config.set(_settings(temporary.tls_ca_file, temporary.tls_client_cert,
                                   Security.temporary().tls_client_key)):
        with pytest.raises(InputError, match=r"client.key \(PEM text\)\): .*key values mismatch"):
            scheduler_security("tls://127.0.0.1:8786")


@pytest.mark.parametrize("address, warns", [
    (f"tcp://{BEYOND_LOOPBACK}:8786", True),
    (f"{BEYOND_LOOPBACK}:8786", True),  # dask's default scheme is tcp
    ("tcp://127.0.0.1:8786", False),
    ("tcp://localhost:8786", False),
    ("tcp://[::1]:8786", False),
])
def test_plain_tcp_beyond_loopback_is_one_warning(address, warns, hertz2d_records):
    scheduler_security(address)
    assert len(hertz2d_records) == warns


async def _nobody_answers(address: str, connection_args: dict) -> None:
    raise OSError("nobody answers")


def test_the_warning_is_one_line_before_the_error_of_an_unreachable_scheduler(tmp_path,
                                                                              monkeypatch, capsys):
    monkeypatch.setattr(cluster, "_answers", _nobody_answers)  # no network needed
    monkeypatch.setattr(logging.getLogger("hertz2d"), "handlers", [])  # main's, on this stderr
    address = f"tcp://{BEYOND_LOOPBACK}:8786"
    assert main(["sweep", "--quick", "--scheduler", address, "--results", str(tmp_path)]) == 2
    warning, error = capsys.readouterr().err.splitlines()
    assert warning == (f"hertz2d: warning: scheduler='{address}' is plain TCP: anyone who can "
                       "reach that port can run code on the workers and read the results; use a "
                       "tls:// address with certificates, a private network, or an SSH tunnel to "
                       "a scheduler that listens on loopback only")
    assert error == (f"hertz2d sweep: error: scheduler='{address}': cannot reach a dask scheduler "
                     "there (nobody answers)")
