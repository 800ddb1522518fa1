"""The ledger's command line says where it looks and lists only real choices."""

import pytest

from fairlab.experiments import EXPERIMENTS
from fairlab.experiments.__main__ import main


def test_status_names_the_folder_and_says_when_it_holds_no_ledger(tmp_path, capsys):
    folder = tmp_path / "nowhere"
    assert main(["--results", str(folder), "status"]) == 0
    out = capsys.readouterr().out
    assert f"ledgers in {folder.resolve()}" in out
    assert "no such folder" in out and "FAIRLAB_RESULTS" in out
    folder.mkdir()
    main(["--results", str(folder), "status"])
    assert "(empty)" in capsys.readouterr().out


def test_verify_help_lists_the_experiments_and_no_blank_choice(capsys):
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    usage = capsys.readouterr().out
    assert "{," not in usage and "[]" not in usage
    assert ", ".join(EXPERIMENTS) in " ".join(usage.split())


def test_verify_refuses_an_unknown_experiment_with_the_valid_ones(capsys):
    with pytest.raises(SystemExit) as info:
        main(["verify", "kleindesner"])
    assert info.value.code == 2
    assert "invalid choice: 'kleindesner' (choose from kleindessner," in capsys.readouterr().err
