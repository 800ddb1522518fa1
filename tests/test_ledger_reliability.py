"""The results ledger under misuse: concurrent runs, damaged files, duplicated units, selections.

Two ``python -m fairlab.experiments run`` processes over the same units (a command started twice,
a cluster job restarted) must never lose, duplicate or tear a row; a damaged ledger must name
itself and its repair; ``--where`` compares values as their type and refuses a selection of no
unit with the values it could have named.
"""

import gzip
import importlib.util
import multiprocessing
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pandas as pd
import pytest

from fairlab import experiments
from fairlab.experiments import _ledger, de_diego
from fairlab.experiments.__main__ import main

# A toy experiment run by forked processes through the real command line: many quick units and
# a merge every two, so that the processes' merges, cache writes and claims interleave.
TOY = textwrap.dedent('''
    """A toy experiment: 18 quick units whose rows are a function of the key alone."""
    import os
    import random
    import time

    import pandas as pd

    PAPER = "toy"
    UNIT_KEYS = ("dataset", "split")
    PARAMETERS = {"scale": 1.0}


    def units():
        return [{"dataset": d, "split": s} for d in ("a", "b", "c") for s in range(6)]


    def parse_key(fields):
        return {"dataset": fields["dataset"], "split": int(fields["split"])}


    def run_unit(key, parameters):
        random.seed(os.getpid() * 1000 + key["split"])
        time.sleep(random.uniform(0, 0.01))  # the processes finish units in different orders
        value = parameters["scale"] * (ord(key["dataset"]) * 100 + key["split"])
        return pd.DataFrame({
            "paper": PAPER, "table": "t", "dataset": key["dataset"], "method": "m", "k": 2,
            "eta": float("nan"), "model": ["first", "second"], "metric": "score",
            "split": key["split"], "value": [value, value / 7],
        })
''')

#: What identifies a row's content (provenance such as the date and the seconds differs by run).
CONTENT = ["unit", *experiments.RESULT_COLUMNS, "parameters"]


def _content(frame):
    return frame[CONTENT].sort_values(["unit", "model"], ignore_index=True)


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy experiment registered in this process (and so in the processes it forks)."""
    (tmp_path / "toy.py").write_text(TOY)
    spec = importlib.util.spec_from_file_location("fairlab.experiments.toy", tmp_path / "toy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "fairlab.experiments.toy", module)
    for where in (_ledger, _ledger._grid):  # the command line's choices, the module lookup
        monkeypatch.setattr(where, "EXPERIMENTS", (*_ledger.EXPERIMENTS, "toy"))
    monkeypatch.setattr(_ledger._running, "MERGE_EVERY", 2)
    return module


def _command(argv):
    """The experiments' command line in a forked process: its own pid, files and locks."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    os._exit(code if isinstance(code, int) else 1)


def _at_once(*argvs):
    """Run each command line in its own process, all at once; their exit codes."""
    fork = multiprocessing.get_context("fork")
    processes = [fork.Process(target=_command, args=(argv,)) for argv in argvs]
    for process in processes:
        process.start()
    for process in processes:
        process.join(300)
    return [process.exitcode for process in processes]


def test_concurrent_runs_over_the_same_units_equal_a_serial_run(toy, tmp_path):
    """Three `run` processes and a `status` reader at once, eight times: every ledger equals the
    serial one, each row once, nothing left in the cache."""
    run = ["run", "toy", "--scheduler", "serial", "--quiet"]
    assert _at_once(["--results", str(tmp_path / "serial"), *run]) == [0]
    expected = _content(_ledger.read_ledger("toy", tmp_path / "serial"))
    assert len(expected) == 36
    for trial in range(8):
        results = ["--results", str(tmp_path / f"trial{trial}")]
        codes = _at_once(*[[*results, *run]] * 3, [*results, "status"])
        assert codes == [0, 0, 0, 0], f"trial {trial}"
        ledger = _ledger.read_ledger("toy", tmp_path / f"trial{trial}")  # raises on a duplicate
        pd.testing.assert_frame_equal(_content(ledger), expected)
        left = [p.name for p in (tmp_path / f"trial{trial}" / ".cache" / "toy").iterdir()]
        assert left == [], f"trial {trial}: the cache still holds {left}"


def test_concurrent_runs_of_a_real_experiment_give_the_committed_values(tmp_path):
    """Two `python -m fairlab.experiments run` processes over four De-Diego et al. units."""
    where = ["--where", "dataset=German", "--where", "table=table1"]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    processes = [subprocess.Popen([sys.executable, "-m", "fairlab.experiments", "--results",
                                   str(tmp_path), "run", "de_diego", *where, "--scheduler",
                                   "serial", "--quiet"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env) for _ in range(2)]
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, out + err
    ours = _ledger.read_ledger("de_diego", tmp_path)
    units = set(ours["unit"])
    assert len(units) == 4
    committed = _ledger.read_ledger("de_diego")
    committed = committed[committed["unit"].isin(units)]
    assert len(ours) == len(committed)
    verdict = experiments.equal_to_ledger(ours, committed)
    assert verdict["equal"].all(), verdict


def test_a_unit_cached_again_after_its_claim_is_not_lost(tmp_path, monkeypatch):
    """A merge claims a cached unit by renaming it; a process that finishes the same unit again
    in between writes a new file, which the next merge takes (before the claim, the merge read
    the old file and removed the new one)."""
    rows = [_toy_rows("x", 0, 1.0), _toy_rows("y", 1, 2.0)]
    for frame in rows:
        _ledger._write_atomic(frame, _ledger._cache_file("de_diego", frame["unit"][0], tmp_path))
    claim = _ledger._claim

    def claim_then_rewrite(files):
        claimed = claim(files)
        again = _toy_rows("x", 0, 3.0)  # the same unit, finished again by another process
        _ledger._write_atomic(again, _ledger._cache_file("de_diego", again["unit"][0], tmp_path))
        return claimed

    monkeypatch.setattr(_ledger._running, "_claim", claim_then_rewrite)
    first = _ledger._merge("de_diego", tmp_path)
    assert sorted(first["value"]) == [1.0, 2.0]
    monkeypatch.setattr(_ledger._running, "_claim", claim)
    second = _ledger._merge("de_diego", tmp_path)
    assert sorted(second["value"]) == [2.0, 3.0]  # the later computation replaced the first
    assert list((tmp_path / ".cache" / "de_diego").iterdir()) == []


def test_a_merge_that_died_after_its_claim_is_taken_by_the_next(tmp_path):
    frame = _toy_rows("x", 0, 5.0)
    file = _ledger._cache_file("de_diego", frame["unit"][0], tmp_path)
    _ledger._write_atomic(frame, file)
    (orphan,) = _ledger._claim([file])  # claimed, then the process was killed
    assert orphan.exists() and not file.exists()
    merged = _ledger._merge("de_diego", tmp_path)
    assert merged["value"].tolist() == [5.0]
    assert not orphan.exists()


def test_a_merge_waits_for_the_lock_another_holds(tmp_path):
    _ledger._write_atomic(_toy_rows("x", 0, 1.0),
                          _ledger._cache_file("de_diego", "de_diego/dataset=x/table=table1/eta=0.0",
                                              tmp_path))
    finished = []
    with _ledger._lock("de_diego", tmp_path):
        worker = threading.Thread(target=lambda: finished.append(
            _ledger._merge("de_diego", tmp_path)))
        worker.start()
        time.sleep(0.5)
        assert not finished and not _ledger.ledger_path("de_diego", tmp_path).exists()
    worker.join(30)
    assert len(finished[0]) == 1


def test_a_lock_held_too_long_is_an_error_that_names_it(tmp_path, monkeypatch):
    monkeypatch.setattr(_ledger._files, "LOCK_TIMEOUT", 0.2)
    with _ledger._lock("de_diego", tmp_path):
        errors = []
        worker = threading.Thread(target=lambda: errors.append(_raises(
            lambda: _ledger._merge("de_diego", tmp_path))))
        worker.start()
        worker.join(30)
    assert isinstance(errors[0], _ledger.LedgerError)
    assert "de_diego.lock" in str(errors[0]) and "run again" in str(errors[0])


def test_atomic_writes_from_many_threads_leave_a_whole_file_and_no_temporary(tmp_path):
    """Every writer used to share ``<ledger>.tmp``: two at once tore the file or crashed."""
    file = tmp_path / "ledger.csv.gz"
    frames = [_toy_rows("x", i, float(i)) for i in range(8)]
    errors = []

    def write(frame):
        try:
            for _ in range(10):
                _ledger._write_atomic(frame, file)
        except Exception as err:  # noqa: BLE001 - collected and reported by the test
            errors.append(err)

    threads = [threading.Thread(target=write, args=(f,)) for f in frames]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert pd.read_csv(file)["value"].item() in range(8)
    assert [p.name for p in tmp_path.iterdir()] == ["ledger.csv.gz"]


def _raises(call):
    try:
        call()
    except Exception as err:  # noqa: BLE001 - returned to the test
        return err
    return None


def _toy_rows(dataset, split, value):
    uid = f"de_diego/dataset={dataset}/table=table1/eta={float(split)}"
    return pd.DataFrame([{
        "paper": "dediego2025", "table": "table1", "dataset": dataset, "method": "m", "k": 2,
        "eta": float(split), "model": "LR", "metric": "cov2", "split": 0, "value": value,
        "unit": uid, "commit": "c", "date": f"2026-01-0{1 + split % 9}T00:00:00",
        "machine": "m", "parameters": "{}", "seconds": 0.1, "note": ""}])


# --- damaged ledgers ---------------------------------------------------------------------------

def _good_ledger(tmp_path):
    rows = pd.concat([_toy_rows("x", 0, 1.0), _toy_rows("y", 1, 2.0)], ignore_index=True)
    _ledger._write_atomic(rows, _ledger.ledger_path("de_diego", tmp_path))
    return _ledger.ledger_path("de_diego", tmp_path)


def _truncated(file):
    file.write_bytes(file.read_bytes()[:40])


def _random(file):
    file.write_bytes(np.random.default_rng(0).bytes(500))


def _empty(file):
    file.write_bytes(b"")


def _empty_gzip(file):
    file.write_bytes(gzip.compress(b"", mtime=0))


def _columnless(file):
    file.write_bytes(gzip.compress(b"a,b\n1,2\n", mtime=0))


def _text_in_numbers(file):
    frame = pd.read_csv(file)
    frame["seconds"] = frame["seconds"].astype(object)
    frame.loc[0, "seconds"] = "fast"
    frame.to_csv(file, index=False, compression={"method": "gzip", "mtime": 0})


DAMAGE = [_truncated, _random, _empty, _empty_gzip, _columnless, _text_in_numbers]


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda f: f.__name__.strip("_"))
def test_a_damaged_ledger_names_its_file_and_the_repair(tmp_path, damage, capsys):
    file = _good_ledger(tmp_path)
    damage(file)
    with pytest.raises(_ledger.LedgerError) as error:
        _ledger.read_ledger("de_diego", tmp_path)
    message = str(error.value)
    assert str(file) in message
    assert f"git checkout -- {file}" in message
    assert "python -m fairlab.experiments run de_diego" in message
    # the command line: an error, exit status 2 (run, verify) or 1 (status), never a traceback
    for command, code in ((["run", "de_diego", "--where", "dataset=german", "--where",
                            "table=table1", "--where", "eta=0", "--scheduler", "serial"], 2),
                          (["verify", "de_diego", "--scheduler", "serial"], 2),
                          (["status"], 1)):
        try:
            status = main(["--results", str(tmp_path), *command])
        except SystemExit as exit_:
            status = exit_.code
        assert status == code, command
        assert str(file) in capsys.readouterr().err


def test_a_damaged_cached_unit_names_itself(tmp_path):
    frame = _toy_rows("x", 0, 1.0)
    file = _ledger._cache_file("de_diego", frame["unit"][0], tmp_path)
    _ledger._write_atomic(frame, file)
    file.write_text("paper,table\n")
    with pytest.raises(_ledger.LedgerError, match="its unit is computed again"):
        _ledger._merge("de_diego", tmp_path)
    # the unit is not lost: its claimed file is still there for the user to see
    assert len(list((tmp_path / ".cache" / "de_diego").glob("*.claimed-*"))) == 1


def test_a_duplicated_unit_is_refused_everywhere_and_repaired(tmp_path, capsys):
    older = _toy_rows("x", 0, 1.0)
    newer = _toy_rows("x", 0, 9.0).assign(date="2026-02-01T00:00:00")
    other = _toy_rows("y", 1, 2.0)
    _ledger._write_atomic(pd.concat([older, other, newer], ignore_index=True),
                          _ledger.ledger_path("de_diego", tmp_path))
    repair = f"python -m fairlab.experiments --results {tmp_path} repair de_diego"
    with pytest.raises(_ledger.LedgerError, match="1 unit") as error:
        _ledger.read_ledger("de_diego", tmp_path)
    assert repair in str(error.value) and "dataset=x" in str(error.value)
    assert main(["--results", str(tmp_path), "status"]) == 1
    assert repair in capsys.readouterr().err
    for command in (["run", "de_diego", "--where", "dataset=german", "--scheduler", "serial"],
                    ["verify", "de_diego"]):
        with pytest.raises(SystemExit) as exit_:
            main(["--results", str(tmp_path), *command])
        assert exit_.value.code == 2
        assert repair in capsys.readouterr().err
    assert main(["--results", str(tmp_path), "repair", "de_diego"]) == 0
    assert "1 duplicated row(s) removed" in capsys.readouterr().out
    ledger = _ledger.read_ledger("de_diego", tmp_path)
    assert sorted(ledger["value"]) == [2.0, 9.0]  # the latest computation of x is kept


def test_the_repair_command_of_the_default_folder_names_no_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRLAB_RESULTS", str(tmp_path))
    rows = _toy_rows("x", 0, 1.0)
    _ledger._write_atomic(pd.concat([rows, rows]), _ledger.ledger_path("de_diego"))
    with pytest.raises(_ledger.LedgerError) as error:
        _ledger.read_ledger("de_diego")
    assert "python -m fairlab.experiments repair de_diego." in str(error.value)


def test_the_committed_ledgers_hold_each_row_once():
    for name in experiments.EXPERIMENTS:
        ledger = _ledger.read_ledger(name)  # raises on a duplicate
        assert not ledger.duplicated(_ledger.ROW_KEYS).any()


# --- selections --------------------------------------------------------------------------------

@pytest.mark.parametrize("where, expected", [
    ({"eta": ["1"]}, {("adult", "table1", 1.0), ("adult", "table4", 1.0)}),
    ({"eta": ["1.0"]}, {("adult", "table1", 1.0), ("adult", "table4", 1.0)}),
    ({"eta": ["1e0"]}, {("adult", "table1", 1.0), ("adult", "table4", 1.0)}),
    ({"eta": [1]}, {("adult", "table1", 1.0), ("adult", "table4", 1.0)}),
    ({"eta": ["10"]}, {("adult", "table1", 10.0)}),
])
def test_where_compares_numbers_as_numbers(where, expected):
    units = _ledger.select_units("de_diego", {"dataset": ["adult"], **where})
    assert {(u["dataset"], u["table"], u["eta"]) for u in units} == expected


@pytest.mark.parametrize("name", ["german", "German", "GERMAN", "German Credit", "german credit",
                                  " german "])
def test_where_reads_data_sets_as_keys_or_as_printed(name):
    units = _ledger.select_units("de_diego", {"dataset": [name]})
    assert {u["dataset"] for u in units} == {"german"}
    assert len(units) == len(de_diego.units(["german"]))


@pytest.mark.parametrize("field, value", [("dataset", ""), ("dataset", "germn"),
                                          ("eta", "0.3"), ("eta", "one"),
                                          ("table", "table9")])
def test_a_value_no_unit_takes_lists_the_valid_values(field, value, capsys):
    with pytest.raises(ValueError) as error:
        _ledger.select_units("de_diego", {field: [value]})
    valid = {"dataset": "'german' (German Credit)", "eta": "0.25", "table": "'table4'"}[field]
    assert f"{field}={value!r}" in str(error.value) and valid in str(error.value)
    with pytest.raises(SystemExit) as exit_:
        main(["run", "de_diego", "--where", f"{field}={value}"])
    assert exit_.value.code == 2
    assert valid in capsys.readouterr().err


def test_values_that_exist_but_not_together_select_no_unit_and_say_so():
    with pytest.raises(ValueError, match="not together"):
        _ledger.select_units("de_diego", {"table": ["table1"], "eta": ["0.25"]})


def test_an_unknown_field_names_the_fields():
    with pytest.raises(ValueError, match=r"fields \['dataset', 'table', 'eta'\]"):
        _ledger.select_units("de_diego", {"colour": ["red"]})


# --- bookkeeping that decides what counts as done or equal -------------------------------------

@pytest.mark.parametrize("name", experiments.EXPERIMENTS)
def test_a_run_over_the_committed_grid_would_compute_nothing(name):
    """Each committed unit counts as done for the paper-scale parameters: a change in how the
    parameters are written (unsorted keys, other separators) would make `run` recompute them
    all."""
    module = _ledger._module(name)
    shuffled = dict(reversed(list(module.PARAMETERS.items())))
    assert experiments.parameters_json(shuffled) == experiments.parameters_json(
        module.PARAMETERS)
    ledger = _ledger.read_ledger(name)
    done = set(ledger.loc[ledger["parameters"] == experiments.parameters_json(shuffled), "unit"])
    grid = {experiments.unit_id(name, key) for key in module.units()}
    assert grid <= done


def test_a_stored_nan_equals_a_recomputed_nan_and_nothing_else(tmp_path):
    """180 committed Kleindessner rows are NaN (an undefined metric): verify must call them
    equal when they come back NaN, and different when they come back as a number."""
    ledger = pd.concat([_toy_rows("x", 0, np.nan), _toy_rows("y", 1, 2.0)], ignore_index=True)
    same = ledger.copy()
    verdict = experiments.equal_to_ledger(same, ledger).set_index("unit")["equal"]
    assert verdict.all()
    changed = ledger.copy()
    changed.loc[0, "value"] = 0.0
    verdict = experiments.equal_to_ledger(changed, ledger).set_index("unit")["equal"]
    assert verdict.tolist() == [False, True]
    changed = ledger.copy()
    changed.loc[1, "value"] = np.nan
    verdict = experiments.equal_to_ledger(changed, ledger).set_index("unit")["equal"]
    assert verdict.tolist() == [True, False]


@pytest.mark.parametrize("stored, recomputed, equal", [
    (0.12345679, 0.123456789, True),          # rounds to the stored value at 8 digits
    (0.12345679, 0.1234567849, False),        # rounds to ...78: one unit in the 8th digit off
    (1234.5678, 1234.56784999, True),
    (1234.5678, 1234.5678500001, False),
])
def test_equal_means_equal_at_the_stored_digits_on_both_sides_of_the_edge(stored, recomputed,
                                                                           equal):
    ledger = _toy_rows("x", 0, stored)
    rows = ledger.assign(value=recomputed)
    assert experiments.equal_to_ledger(rows, ledger)["equal"].item() is equal
