"""The results ledger: work units, resumable runs, Dask against serial, verification."""

import json

import numpy as np
import pandas as pd
import pytest

from fairlab import experiments
from fairlab.experiments import _ledger, kleindessner, kleindessner_tradeoffs
from fairlab.experiments.__main__ import main

# Four quick units: COMPAS (d = 11), two closed-form methods, k = 2, two of Lee et al.'s splits.
UNITS = kleindessner.units(["compas"], ["PCA", "Fair PCA"], ks=(2,), splits=[0, 1])
COMPARED = ["unit", *experiments.RESULT_COLUMNS, "parameters", "commit"]  # machine: per worker


def _same_rows(a, b):
    order = ["unit", "table", "model", "metric"]
    a = a[COMPARED].sort_values(order, ignore_index=True)
    b = b[COMPARED].sort_values(order, ignore_index=True)
    pd.testing.assert_frame_equal(a, b)


@pytest.fixture
def calls(monkeypatch):
    """Count the units actually computed in this process (serial runs)."""
    done = []
    original = kleindessner.run_unit

    def counting(key, parameters):
        done.append(dict(key))
        return original(key, parameters)

    monkeypatch.setattr(kleindessner, "run_unit", counting)
    return done


@pytest.fixture
def one_unit_failed(tmp_path, calls, monkeypatch):
    """The rows of a run of UNITS[:2] in tmp_path whose split-1 unit raised."""
    counting = kleindessner.run_unit

    def fails_on_split_1(key, parameters):
        if key["split"] == 1:
            raise ValueError("the solver did not converge")
        return counting(key, parameters)

    monkeypatch.setattr(kleindessner, "run_unit", fails_on_split_1)
    return experiments.run("kleindessner", UNITS[:2], scheduler="serial", path=tmp_path)


def test_a_unit_returns_per_split_rows_with_the_published_keys():
    rows = experiments.recompute("kleindessner", UNITS[:1])
    assert list(rows.columns) == experiments.LEDGER_COLUMNS
    assert set(rows["split"]) == {0} and set(rows["table"]) == {"table3"}
    assert set(rows["metric"]) == {"var_pct", "mmd2", "accuracy_pct", "delta_dp"}
    assert set(rows["model"]) == {"", "Kernel SVM", "Linear SVM", "MLP"}
    assert rows["unit"].unique().tolist() == [
        "kleindessner/dataset=compas/method=PCA/k=2/split=0"]
    assert json.loads(rows["parameters"].iloc[0]) == kleindessner.PARAMETERS
    assert "BLAS" in rows["machine"].iloc[0] and rows["seconds"].iloc[0] > 0


def test_a_synthetic_unit_feeds_figs_2_3_and_7_and_its_timing_is_not_compared():
    key = {"dataset": "synthetic100", "method": "Fair PCA", "k": 5, "split": 0}
    rows = experiments.recompute("kleindessner", [key])
    assert sorted(rows["table"].unique()) == ["fig2", "fig3", "fig7"]
    assert set(rows.loc[rows.table == "fig2", "metric"]) == {"var_pct", "mmd2",
                                                             "linear_inseparability"}
    again = experiments.recompute("kleindessner", [key])
    again.loc[again.metric == "fit_seconds", "value"] *= 3  # another machine, another time
    assert experiments.equal_to_ledger(again, rows)["equal"].all()
    grid = kleindessner.units(datasets=["synthetic100"], methods=["FPCA (0, 0.01)", "INLP"])
    assert {(u["method"], u["k"]) for u in grid} == {("FPCA (0, 0.01)", 5)} | {
        ("INLP", k) for k in kleindessner.FIG7_KS}


def test_the_ledger_is_written_and_a_second_run_computes_nothing(tmp_path, calls):
    first = experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    assert len(calls) == 4 and first["unit"].nunique() == 4
    assert experiments.ledger_path("kleindessner", tmp_path).exists()
    stored = experiments.read_ledger("kleindessner", tmp_path)
    assert list(stored.columns) == experiments.LEDGER_COLUMNS
    _same_rows(stored, first)
    again = experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    assert len(calls) == 4  # nothing recomputed
    _same_rows(again, first)


def test_an_interrupted_run_resumes_without_redoing_finished_units(tmp_path, calls, monkeypatch):
    counting = kleindessner.run_unit

    def dies_on_the_third(key, parameters):
        if len(calls) == 2:
            raise KeyboardInterrupt
        return counting(key, parameters)

    monkeypatch.setattr(kleindessner, "run_unit", dies_on_the_third)
    with pytest.raises(KeyboardInterrupt):
        experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    assert len(calls) == 2
    monkeypatch.setattr(kleindessner, "run_unit", counting)
    rows = experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    assert len(calls) == 4  # the two finished units were kept, the other two computed
    assert rows["unit"].nunique() == 4


def test_redo_and_other_parameters_recompute(tmp_path, calls):
    experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path)
    experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path, redo=True)
    assert len(calls) == 2
    rows = experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path,
                           parameters={"random_state": 1})
    assert len(calls) == 3
    assert json.loads(rows["parameters"].iloc[0])["random_state"] == 1
    assert experiments.read_ledger("kleindessner", tmp_path)["unit"].nunique() == 1


def test_bad_requests_are_refused(tmp_path):
    with pytest.raises(ValueError, match="experiment must be one of"):
        experiments.run("nope", path=tmp_path)
    with pytest.raises(ValueError, match="unknown parameter"):
        experiments.run("kleindessner", UNITS, parameters={"n_splits": 3}, path=tmp_path)
    with pytest.raises(ValueError, match="lacks"):
        experiments.unit_id("kleindessner", {"dataset": "compas"})
    with pytest.raises(ValueError, match="unknown method"):
        kleindessner.units(methods=["PCA", "PCA++"])


def test_a_local_cluster_of_two_processes_gives_the_serial_rows(tmp_path):
    pytest.importorskip("dask.distributed")
    from dask.distributed import Client, LocalCluster

    serial = experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path / "s")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        parallel = experiments.run("kleindessner", UNITS, scheduler=client,
                                   path=tmp_path / "p")
        assert len(client.scheduler_info()["workers"]) == 2
        # verify and recompute run their units on the cluster too, with the serial verdict
        verdict = experiments.verify("kleindessner", path=tmp_path / "s", scheduler=client)
        again = experiments.recompute("kleindessner", UNITS, scheduler=client)
        # the command line verifies several ledgers on one cluster at once
        experiments.run("perez_suay", [{"dataset": "cmc", "table": "fig5", "split": 0}],
                        scheduler="serial", path=tmp_path / "s")
        command = ["--results", str(tmp_path / "s"), "verify", "kleindessner", "perez_suay",
                   "--scheduler", cluster.scheduler_address]
        assert main(command) == 0
    _same_rows(serial, parallel)
    assert verdict["equal"].eq(True).all() and len(verdict) == 2
    assert experiments.equal_to_ledger(again, serial)["equal"].all()


def test_equal_to_ledger_sees_a_change_beyond_the_stored_precision(tmp_path):
    ledger = experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path)
    fresh = experiments.recompute("kleindessner", UNITS[:1])
    assert experiments.equal_to_ledger(fresh, ledger)["equal"].all()
    nudged = fresh.copy()
    row = nudged.index[nudged["metric"] == "var_pct"][0]
    nudged.loc[row, "value"] *= 1 + 1e-13  # rounding noise: still equal
    assert experiments.equal_to_ledger(nudged, ledger)["equal"].all()
    nudged.loc[row, "value"] *= 1 + 1e-6  # beyond 8 significant digits: differs
    verdict = experiments.equal_to_ledger(nudged, ledger)
    assert not verdict["equal"].any()
    assert verdict["max_relative_difference"].item() == pytest.approx(1e-6, rel=0.2)
    absent = experiments.equal_to_ledger(experiments.recompute("kleindessner", UNITS[1:2]), ledger)
    assert not absent["in_ledger"].item() and not absent["equal"].item()


def test_verify_recomputes_a_sample_and_names_what_it_left_out(tmp_path):
    experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    ledger = experiments.read_ledger("kleindessner", tmp_path)
    sample = experiments.verification_sample(ledger)
    assert len(sample) == 2  # one unit per (data set, method), whole
    assert {u.split("/")[2] for u, _ in sample} == {"method=PCA", "method=Fair PCA"}
    assert {part for _, part in sample} == {None}
    result = experiments.verify("kleindessner", path=tmp_path)
    assert result["equal"].eq(True).all() and len(result) == 2
    # a planted change in the stored ledger is found
    file = experiments.ledger_path("kleindessner", tmp_path)
    planted = ledger.copy()
    planted.loc[planted["metric"] == "mmd2", "value"] *= 1.001
    planted.to_csv(file, index=False)
    assert not experiments.verify("kleindessner", path=tmp_path)["equal"].all()
    command = ["--results", str(tmp_path), "verify", "kleindessner", "--scheduler", "serial"]
    assert main(command) == 1
    # a pair whose every unit is too slow is reported, not silently dropped
    slow = experiments.verify("kleindessner", path=tmp_path, max_unit_seconds=0.0)
    assert slow["equal"].isna().all() and len(slow) == 2


def test_summarize_ledger_is_mean_and_population_std(tmp_path):
    ledger = experiments.run("kleindessner", UNITS, scheduler="serial", path=tmp_path)
    summary = experiments.summarize_ledger(ledger)
    cell = summary[(summary.method == "PCA") & (summary.metric == "var_pct")]
    values = ledger[(ledger.method == "PCA") & (ledger.metric == "var_pct")]["value"]
    assert cell["mean"].item() == pytest.approx(values.mean())
    assert cell["std"].item() == pytest.approx(np.std(values))
    assert cell["n_splits"].item() == 2


def test_command_line_status_and_run(tmp_path, capsys):
    assert main(["--results", str(tmp_path), "run", "kleindessner", "--scheduler", "serial",
                 "--quiet", "--where", "dataset=compas", "--where", "method=PCA",
                 "--where", "k=2", "--where", "split=0"]) == 0
    assert "1 unit(s) in the ledger" in capsys.readouterr().out
    assert main(["--results", str(tmp_path), "status"]) == 0
    assert "kleindessner" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["--results", str(tmp_path), "run", "kleindessner", "--where", "colour=red"])
    assert exit_.value.code == 2
    assert "have the fields ['dataset', 'method', 'k', 'split']" in capsys.readouterr().err


def test_the_committed_ledger_is_well_formed():
    for name in experiments.EXPERIMENTS:
        ledger = experiments.read_ledger(name)
        if ledger.empty:
            continue
        assert list(ledger.columns) == experiments.LEDGER_COLUMNS
        assert not ledger.duplicated(_ledger.ROW_KEYS).any()
        assert ledger[["unit", "commit", "date", "machine", "parameters"]].ne("").all().all()
        assert (ledger["seconds"] >= 0).all()
        stored = ledger["value"].dropna()
        assert (stored.map(_ledger._round) == stored).all()  # at most 8 significant digits


def _one_unit_with_a_planted_difference(path):
    """A ledger of one unit whose %Var values are 1 % off; the unit's id."""
    experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=path)
    planted = experiments.read_ledger("kleindessner", path)
    planted.loc[planted["metric"] == "var_pct", "value"] *= 1.01
    planted.to_csv(experiments.ledger_path("kleindessner", path), index=False)
    return planted["unit"].iloc[0]


def test_a_kernel_dependent_method_on_another_kernel_is_reported_not_judged(tmp_path,
                                                                             monkeypatch):
    _one_unit_with_a_planted_difference(tmp_path)
    assert experiments.verify("kleindessner", path=tmp_path)["equal"].eq(False).all()
    monkeypatch.setattr(kleindessner, "KERNEL_DEPENDENT", ("PCA",))
    assert experiments.verify("kleindessner", path=tmp_path)["equal"].eq(False).all()  # same kernel
    monkeypatch.setattr(_ledger._verify, "machine", lambda: "elsewhere, BLAS: openblas Katmai")
    result = experiments.verify("kleindessner", path=tmp_path)
    assert result["equal"].isna().all() and "another BLAS kernel" in result["note"].item()
    assert "largest relative difference 9.9e-03" in result["note"].item()  # 1 − 1/1.01


def test_a_kernel_dependent_unit_on_another_kernel_is_reported_not_judged(tmp_path,
                                                                         monkeypatch):
    uid = _one_unit_with_a_planted_difference(tmp_path)
    monkeypatch.setattr(_ledger._verify, "machine", lambda: "elsewhere, BLAS: openblas Katmai")
    monkeypatch.setattr(kleindessner, "KERNEL_DEPENDENT_UNITS", (uid + "x",), raising=False)
    assert experiments.verify("kleindessner", path=tmp_path)["equal"].eq(False).all()
    monkeypatch.setattr(kleindessner, "KERNEL_DEPENDENT_UNITS", (uid,), raising=False)
    result = experiments.verify("kleindessner", path=tmp_path)
    assert result["equal"].isna().all() and "another BLAS kernel" in result["note"].item()


def test_the_kernel_dependent_labels_name_real_methods_and_models():
    # verify() matches the labels by string: a misspelt one would silently judge the method
    assert set(kleindessner.KERNEL_DEPENDENT) <= set(kleindessner.METHODS) | set(
        kleindessner.REFERENCE_CODE_RUNS)
    assert "MbF-PCA (10^-6)" in kleindessner.KERNEL_DEPENDENT
    # a run as in the reference code fits like its method, so it is listed with it
    for method in set(kleindessner.KERNEL_DEPENDENT) & set(kleindessner.REFERENCE_CODE_METHODS):
        assert method + kleindessner.REFERENCE_CODE_SUFFIX in kleindessner.KERNEL_DEPENDENT
    assert set(kleindessner.KERNEL_DEPENDENT_MODELS) <= set(kleindessner.MODELS.values())


def test_a_unit_that_fails_is_recorded_as_missing_with_its_reason(tmp_path, calls,
                                                                   one_unit_failed):
    rows = one_unit_failed
    missing = rows[rows["metric"] == experiments.MISSING]
    assert len(missing) == 1 and np.isnan(missing["value"].item())
    assert missing["note"].item() == "ValueError: the solver did not converge"
    assert missing["unit"].item().endswith("split=1")
    summary = experiments.summarize_ledger(rows)
    assert experiments.MISSING not in set(summary["metric"])
    assert (summary["n_splits"] == 1).all()  # the cell rests on the split that finished
    assert experiments.verification_sample(rows) == [(rows["unit"].iloc[0], None)]
    experiments.run("kleindessner", UNITS[:2], scheduler="serial", path=tmp_path)
    assert len(calls) == 1  # recorded once; --redo retries it


def test_kernel_dependent_models_are_left_out_on_another_kernel(tmp_path, monkeypatch):
    experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path)
    file = experiments.ledger_path("kleindessner", tmp_path)
    planted = experiments.read_ledger("kleindessner", tmp_path)
    planted.loc[planted["model"] == "MLP", "value"] += 1.0  # the MLP drifted on this kernel
    planted.to_csv(file, index=False)
    assert not experiments.verify("kleindessner", path=tmp_path)["equal"].all()  # same kernel
    monkeypatch.setattr(_ledger._verify, "machine", lambda: "elsewhere, BLAS: openblas Katmai")
    result = experiments.verify("kleindessner", path=tmp_path)
    assert result["equal"].all() and result["values"].item() == 6  # %Var, MMD², two SVMs
    assert "not compared" in result["note"].item()


def test_describe_ledger_counts_units_commits_missing_and_the_grid(one_unit_failed):
    rows = one_unit_failed
    text = experiments.describe_ledger(rows, "kleindessner").splitlines()
    assert text[0].startswith(f"ledger: 2 units, {len(rows)} rows; computed at 1 commit(s) on ")
    assert "1 unit(s) recorded as missing" in text
    failed = experiments.unit_id("kleindessner", UNITS[1])
    assert f"  {failed}: ValueError: the solver did not converge" in text
    grid = len(kleindessner.units())
    assert text[-1] == f"paper-scale grid: {grid} units, 2 held, {grid - 2} not computed yet"
    assert experiments.describe_ledger(rows.iloc[:0]) == "the ledger is empty"


def test_recompute_against_ledger_takes_key_lists_and_leaves_out_models(tmp_path):
    ledger = experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path)
    as_list = [[UNITS[0][field] for field in kleindessner.UNIT_KEYS]]
    verdict = experiments.recompute_against_ledger("kleindessner", as_list, ledger)
    assert verdict["unit"].tolist() == ["dataset=compas/method=PCA/k=2/split=0"]
    assert verdict["equal"].all() and verdict["values"].item() == 8
    planted = ledger.copy()
    planted.loc[planted["model"] == "MLP", "value"] *= 1.01
    changed = experiments.recompute_against_ledger("kleindessner", UNITS[:1], planted)
    assert not changed["equal"].any()
    kept = experiments.recompute_against_ledger("kleindessner", UNITS[:1], planted,
                                                leave_out_models=["MLP"])
    assert kept["equal"].all() and kept["values"].item() == 6


def test_the_committed_ledgers_sample_every_data_set_and_method():
    """`make verify-results` reruns, for every (data set, method) pair of each committed ledger,
    a unit whole (quick) or the parts of one (the experiment names them)."""
    for name in experiments.EXPERIMENTS:
        ledger = experiments.read_ledger(name)
        if ledger.empty:
            continue
        sample = experiments.verification_sample(ledger)
        whole = ledger[ledger["unit"].isin({uid for uid, part in sample if part is None})]
        assert whole.drop_duplicates("unit")["seconds"].le(_ledger.MAX_UNIT_SECONDS).all()
        in_parts = ledger[ledger["unit"].isin({uid for uid, part in sample if part is not None})]
        assert in_parts.empty or hasattr(getattr(experiments, name), "verification_parts")
        pairs = set(zip(ledger["dataset"], ledger["method"], strict=True))
        sampled = set(zip(whole["dataset"], whole["method"], strict=True)) | set(
            zip(in_parts["dataset"], in_parts["method"], strict=True))
        assert sampled == pairs, name


def test_a_unit_of_kernel_dependent_models_only_is_reported_not_dropped(tmp_path, monkeypatch):
    ledger = experiments.run("kleindessner", UNITS[:1], scheduler="serial", path=tmp_path)
    every_model = tuple(ledger["model"].unique())  # NaN (the embedding's metrics) included
    monkeypatch.setattr(kleindessner, "KERNEL_DEPENDENT_MODELS", every_model)
    monkeypatch.setattr(_ledger._verify, "machine", lambda: "elsewhere, BLAS: openblas Katmai")
    result = experiments.verify("kleindessner", path=tmp_path)
    assert len(result) == 1 and result["equal"].isna().all()
    assert result["values"].item() == 0 and "not compared" in result["note"].item()


def test_the_trade_off_curves_kernel_dependent_models_are_its_classifiers():
    assert set(kleindessner_tradeoffs.KERNEL_DEPENDENT_MODELS) <= set(
        kleindessner_tradeoffs.CLASSIFIERS)


def test_units_of_times_only_are_sampled_last_and_reported(tmp_path):
    # Fig. 7's units hold fit times only (k = 2 here), Figs. 2 and 3's hold values too (k = 5)
    times_only = {"dataset": "synthetic100", "method": "PCA", "k": 2, "split": 0}
    valued = {"dataset": "synthetic100", "method": "PCA", "k": 5, "split": 0}
    ledger = experiments.run("kleindessner", [times_only, valued], scheduler="serial",
                             path=tmp_path)
    assert set(ledger.loc[ledger["unit"].str.contains("k=2/"), "metric"]) == {"fit_seconds"}
    ledger.loc[ledger["unit"].str.contains("k=2/"), "seconds"] = 0.0  # the quicker unit
    sample = experiments.verification_sample(ledger)
    assert [uid for uid, _ in sample] == [experiments.unit_id("kleindessner", valued)]
    # a pair whose units are all times only is still sampled, and says why nothing is compared
    file = experiments.ledger_path("kleindessner", tmp_path)
    ledger[ledger["unit"].str.contains("k=2/")].to_csv(file, index=False)
    result = experiments.verify("kleindessner", path=tmp_path)
    assert len(result) == 1 and result["equal"].isna().all()
    assert result["note"].item() == "wall-clock times only: nothing to compare"


def test_the_results_folder_is_a_setting(tmp_path, monkeypatch):
    """``path`` first, then ``$FAIRLAB_RESULTS``, then the nearest ``notebooks/results`` above
    the working directory; without any of them, an error that says how to name one."""
    checkout = tmp_path / "checkout"
    results = checkout / "notebooks" / "results"
    results.mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(checkout)
    monkeypatch.setenv("FAIRLAB_RESULTS", str(tmp_path / "set"))
    assert experiments.results_dir(tmp_path / "given") == tmp_path / "given"
    assert experiments.ledger_path("de_diego") == tmp_path / "set" / "de_diego.csv.gz"
    monkeypatch.setenv("FAIRLAB_RESULTS", "")  # set but empty: not a folder
    assert experiments.results_dir() == results  # make at the root of a checkout
    monkeypatch.delenv("FAIRLAB_RESULTS")
    monkeypatch.chdir(checkout / "notebooks")
    assert experiments.results_dir() == results  # a chapter run in notebooks/
    monkeypatch.chdir(results)
    assert experiments.results_dir() == results
    monkeypatch.chdir(tmp_path / "elsewhere")
    with pytest.raises(experiments.LedgerError, match="FAIRLAB_RESULTS") as error:
        experiments.read_ledger("de_diego")
    assert "path" in str(error.value) and str(tmp_path / "elsewhere") in str(error.value)
    assert experiments.read_ledger("de_diego", tmp_path).empty  # a path needs no default


def test_the_kernel_dependent_units_name_units_of_the_committed_ledgers():
    # verify() matches the ids by string: a misspelt one would silently judge the unit
    from fairlab.experiments import de_diego

    held = set(experiments.read_ledger("de_diego")["unit"])
    assert de_diego.KERNEL_DEPENDENT_UNITS and set(de_diego.KERNEL_DEPENDENT_UNITS) <= held
