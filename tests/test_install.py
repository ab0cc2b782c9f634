"""``mogul doctor`` and ``mogul lab``: the report on this machine, the notebooks' copy."""

import json
import os
import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from mogul import cli
from mogul.kit import doctor, lab

NOTEBOOKS = sorted(p.name for p in lab.shipped("notebooks").glob("*.ipynb"))


def fake_which(*present: str, folder: Path | None = None):
    """A ``shutil.which`` that finds only ``present`` (in ``folder``, or /usr/bin)."""

    def which(name: str, *args, **kwargs) -> str | None:
        return str((folder or Path("/usr/bin")) / name) if name in present else None

    return which


@pytest.fixture
def bare_debian(monkeypatch):
    """This machine as a Debian laptop with apt-get and none of the optional programs."""
    monkeypatch.setattr(shutil, "which", fake_which("apt-get"))
    monkeypatch.setattr(doctor.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(doctor.platform, "system", lambda: "Linux")
    monkeypatch.setattr(doctor, "_ubuntu", lambda: False)
    monkeypatch.setattr(os, "geteuid", lambda: 1000, raising=False)
    for name in ("MOGUL_CHROMIUM", "MOGUL_PG_BIN"):
        monkeypatch.delenv(name, raising=False)


def test_doctor_says_what_is_missing_and_the_apt_command(bare_debian, capsys):
    assert cli.main(["doctor"]) == 0  # it reports, it does not fail
    out = capsys.readouterr().out
    lines = {line.split()[1]: line for line in out.splitlines() if line[2:4] in ("ok", "mi")}
    assert lines["the"].startswith("  ok") and "mogul-kit" in lines["the"]
    assert lines["JupyterLab"].startswith("  ok")
    for part in ("Chromium", "bubblewrap", "PostgreSQL"):
        assert lines[part].startswith("  missing"), out
    assert "install: sudo apt-get install -y chromium\n" in out
    assert "install: sudo apt-get install -y bubblewrap\n" in out
    assert "install: sudo apt-get install -y postgresql\n" in out
    assert "bots run as plain processes with the same limits" in out
    assert out.rstrip().endswith("3 missing of 6")
    assert "done in" not in out


def test_doctor_finds_what_is_there(monkeypatch, tmp_path):
    (tmp_path / "initdb").write_text("")
    monkeypatch.setattr(shutil, "which", fake_which("chromium", "bwrap", "initdb", folder=tmp_path))
    monkeypatch.setattr(doctor.platform, "system", lambda: "Linux")
    for name in ("MOGUL_CHROMIUM", "MOGUL_PG_BIN"):
        monkeypatch.delenv(name, raising=False)
    found = {c.part: c for c in doctor.checks()}
    assert found["Chromium"].detail == f"{tmp_path / 'chromium'} (the browser tests)"
    assert found["bubblewrap"].found and found["PostgreSQL"].found
    assert found["PostgreSQL"].detail.startswith(f"server programs in {tmp_path} ")
    assert not any(c.install for c in found.values() if c.found)


def test_doctor_on_macos_says_brew_and_the_sandbox_fallback(bare_debian, monkeypatch):
    monkeypatch.setattr(doctor.platform, "system", lambda: "Darwin")
    found = {c.part: c for c in doctor.checks()}
    assert found["Chromium"].install.startswith("brew install --cask chromium")
    assert found["PostgreSQL"].install == "brew install postgresql@17"
    bwrap = found["bubblewrap"]
    assert (bwrap.found, bwrap.install) == (False, "")
    assert bwrap.detail.startswith("namespaces need Linux, this is Darwin: students' bots run")


def test_doctor_elsewhere_says_what_to_install_in_words(bare_debian, monkeypatch):
    monkeypatch.setattr(doctor.platform, "system", lambda: "Windows")
    found = {c.part: c for c in doctor.checks()}
    assert found["Chromium"].install == "install Chromium, then set MOGUL_CHROMIUM to its path"
    assert found["PostgreSQL"].install.startswith("install PostgreSQL and put its bin folder")


def test_doctor_as_root_on_ubuntu_needs_no_sudo(bare_debian, monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(doctor, "_ubuntu", lambda: True)
    found = {c.part: c for c in doctor.checks()}
    assert found["Chromium"].install == "apt-get install -y chromium-browser"


def test_doctor_names_the_missing_classroom_packages_and_the_extra(bare_debian, monkeypatch):
    real = doctor.version
    monkeypatch.setattr(doctor, "version", lambda p: None if p in ("voila", "segno") else real(p))
    found = {c.part: c for c in doctor.checks()}
    classroom = found["classroom"]
    assert not classroom.found
    assert classroom.detail.startswith("segno, voila not installed")
    assert classroom.install.endswith(' -m pip install "mogul-kit[classroom]"')


def test_extra_packages_reads_the_extra_from_the_metadata(monkeypatch):
    requires = [
        "numpy>=2",
        'sqlalchemy>=2.0; extra == "classroom"',
        "psycopg[binary]>=3.1; extra == 'classroom'",
        'pytest>=8; extra == "test"',
        'voila==0.5.8; extra == "classroom"',
    ]
    monkeypatch.setattr(doctor.metadata, "requires", lambda kit: requires)
    assert doctor.extra_packages("classroom") == ["sqlalchemy", "psycopg", "voila"]


def test_lab_copies_the_notebooks_then_keeps_a_students_edited_copy(tmp_path):
    folder = tmp_path / "mine"
    first = lab.copy_notebooks(folder)
    assert [p.name for p in first.copied] == NOTEBOOKS and len(NOTEBOOKS) >= 8
    assert first.message() == f"copied {len(NOTEBOOKS)} notebooks into {folder}"

    edited, deleted = folder / NOTEBOOKS[2], folder / NOTEBOOKS[0]
    edited.write_text('{"my": "answers"}')
    deleted.unlink()
    second = lab.copy_notebooks(folder)
    assert second.copied == [deleted] and second.kept == [edited]
    assert len(second.same) == len(NOTEBOOKS) - 2
    assert edited.read_text() == '{"my": "answers"}'  # never overwritten
    assert second.message().splitlines() == [
        f"copied 1 notebook into {folder}",
        f"{len(NOTEBOOKS) - 2} notebooks in {folder} already the kit's own",
        f"kept your copy of {edited.name} (it differs from the kit's; "
        "rename it to get the kit's again)",
    ]
    assert sorted(p.name for p in folder.iterdir()) == NOTEBOOKS  # no partial files left


def test_lab_refuses_a_file_for_a_folder(tmp_path, capsys):
    (tmp_path / "notes").write_text("")
    with pytest.raises(SystemExit) as stop:
        cli.main(["lab", str(tmp_path / "notes"), "--copy-only"])
    assert stop.value.code == 2
    assert "notes is a file; name a folder for the notebooks" in capsys.readouterr().err


def test_lab_starts_jupyterlab_with_the_kits_settings(tmp_path, monkeypatch, capsys):
    started, trusted = [], []
    monkeypatch.setattr(cli, "warm_up", lambda: False)
    monkeypatch.setattr(lab, "trust", lambda paths: trusted.extend(paths))
    monkeypatch.setattr(lab, "start_lab", started.append)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["lab", "--no-browser", "--port=8899"]) == 0
    folder = tmp_path / lab.FOLDER
    assert f"copied {len(NOTEBOOKS)} notebooks into {folder}" in capsys.readouterr().out
    assert sorted(p.name for p in trusted) == NOTEBOOKS
    (arguments,) = started
    settings = Path(arguments[1].removeprefix("--LabApp.app_settings_dir="))
    assert arguments[0] == f"--ServerApp.root_dir={folder}"
    assert json.loads((settings / "overrides.json").read_text())[
        "@jupyterlab/apputils-extension:notification"
    ] == {"fetchNews": "false", "checkForUpdates": False}
    assert arguments[-2:] == ["--no-browser", "--port=8899"]


def test_only_lab_passes_unknown_options_on(capsys):
    with pytest.raises(SystemExit):
        cli.main(["doctor", "--port=8899"])
    assert "unrecognized arguments: --port=8899" in capsys.readouterr().err


def test_trust_signs_the_kits_copies_and_not_a_students(tmp_path):
    # A new account: no Jupyter data folder yet (trust makes it).
    notary = NotebookNotary(data_dir=str(tmp_path / "new" / "jupyter"))
    done = lab.copy_notebooks(tmp_path / "mine")
    fresh, other = done.copied[0], done.copied[1]
    lab.trust([fresh], notary)

    def signed(path: Path) -> bool:
        return notary.check_signature(nbformat.read(path, as_version=nbformat.NO_CONVERT))

    assert signed(fresh) and not signed(other)
