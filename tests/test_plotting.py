"""Tests of fairlab.plotting: every function returns labelled Axes and refuses bad data."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from sklearn.decomposition import PCA  # noqa: E402

from fairlab import plotting as fp  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def sweep_results():
    rng = np.random.default_rng(0)
    n = 2 * 3 * 4
    return pd.DataFrame({
        "method": np.repeat(["Fair PCA", "PCA"], 12),
        "lam": np.tile(np.repeat([0.0, 0.5, 1.0], 4), 2),
        "split": np.tile(np.arange(4), 6),
        "accuracy": rng.uniform(0.7, 0.9, n),
        "dp_violation": rng.uniform(0.0, 0.2, n),
    })


def _labelled(ax):
    assert isinstance(ax, Axes)
    assert ax.get_xlabel() and ax.get_ylabel()
    return ax


def test_plot_tradeoff_averages_over_splits(sweep_results):
    ax = _labelled(fp.plot_tradeoff(sweep_results, param="lam"))
    assert ax.get_ylabel().startswith("accuracy")
    lines = [ln for ln in ax.get_lines() if ln.get_label() in ("Fair PCA", "PCA")]
    assert len(lines) == 2
    expected = sweep_results[sweep_results.method == "Fair PCA"].groupby("lam")["accuracy"].mean()
    np.testing.assert_allclose(lines[0].get_ydata(), expected.to_numpy())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Fair PCA", "PCA"]


def test_plot_tradeoff_without_param_and_given_ax(sweep_results):
    fig, ax = plt.subplots()
    out = fp.plot_tradeoff(sweep_results[sweep_results.lam == 0], hue=None, ax=ax)
    assert out is ax
    _labelled(out)


def test_plot_boxplots(sweep_results):
    ax = _labelled(fp.plot_boxplots(sweep_results, "accuracy"))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Fair PCA", "PCA"]
    ax = _labelled(fp.plot_boxplots(sweep_results, "accuracy", hue="lam"))
    assert len(ax.get_legend().get_texts()) == 3


def test_plot_runtime_is_log_log():
    df = pd.DataFrame({"d": [20, 60, 100] * 2, "method": ["a"] * 3 + ["b"] * 3,
                       "seconds": [0.01, 0.02, 0.05, 0.1, 0.5, 2.0]})
    ax = _labelled(fp.plot_runtime(df))
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert "(s)" in ax.get_ylabel()


def test_plot_embedding_and_component_map():
    rng = np.random.default_rng(1)
    X, z = rng.normal(size=(60, 2)), rng.integers(0, 2, 60)
    ax = _labelled(fp.plot_embedding(X, z))
    assert len(ax.collections) == 2
    pca = PCA(2).fit(X)
    ax = _labelled(fp.plot_component_map(pca, X, component=1, sensitive_features=z,
                                         resolution=20))
    mesh = ax.collections[0]
    grid = np.column_stack([m.ravel() for m in np.meshgrid(
        np.linspace(X[:, 0].min() - 0.05 * np.ptp(X[:, 0]),
                    X[:, 0].max() + 0.05 * np.ptp(X[:, 0]), 20),
        np.linspace(X[:, 1].min() - 0.05 * np.ptp(X[:, 1]),
                    X[:, 1].max() + 0.05 * np.ptp(X[:, 1]), 20))])
    np.testing.assert_allclose(np.asarray(mesh.get_array()).ravel(), pca.transform(grid)[:, 1])
    assert ax.figure.axes[-1].get_ylabel() == "component 2 (projection units)"
    ax = fp.plot_component_map(pca, X, resolution=5, colorbar_label="score")
    assert ax.figure.axes[-1].get_ylabel() == "score"


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: fp.plot_tradeoff([1, 2]), TypeError, "tidy pandas DataFrame"),
        (lambda: fp.plot_tradeoff(pd.DataFrame({"a": [1]})), ValueError, "not in the data"),
        (lambda: fp.plot_boxplots(pd.DataFrame({"method": ["a"]}), "acc"), ValueError,
         r"\['acc'\]"),
        (lambda: fp.plot_embedding(np.ones(5), np.ones(5)), ValueError, "at least two columns"),
        (lambda: fp.plot_embedding(np.ones((5, 2)), np.ones(4)), ValueError, "4 entries"),
        (lambda: fp.plot_component_map(PCA(1), np.ones((5, 3))), ValueError,
         "exactly two columns"),
        (lambda: fp.plot_component_map(object(), np.ones((5, 2))), TypeError, "transform"),
    ],
)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_plot_concept_erasure_draws_one_row_per_version():
    rng = np.random.default_rng(0)
    images = {"Original": rng.random((4, 12)), "PCA": rng.random((4, 12)),
              "Fair PCA": rng.random((4, 12))}
    axes = fp.plot_concept_erasure(images, (3, 4), concept=[1, 1, 0, 0], concept_name="bar")
    assert axes.shape == (3, 4)
    assert [axes[r, 0].get_ylabel() for r in range(3)] == ["Original", "PCA", "Fair PCA"]
    assert axes[0, 0].get_title() == "with bar" and axes[0, 3].get_title() == "without bar"
    shown = axes[1, 2].get_images()[0].get_array()
    np.testing.assert_allclose(shown, images["PCA"][2].reshape(3, 4))
    # one grey scale for every row: the originals' range
    assert axes[2, 0].get_images()[0].get_clim() == (images["Original"].min(),
                                                     images["Original"].max())
    plt.close("all")


@pytest.mark.parametrize(
    "images, shape, kwargs, match",
    [
        ({}, (2, 2), {}, "non-empty dict"),
        ({"a": np.ones((2, 4)), "b": np.ones((2, 5))}, (2, 2), {}, r"images\['b'\]"),
        ({"a": np.ones((2, 4))}, (3, 2), {}, "image_shape"),
        ({"a": np.ones((2, 4))}, (2, 2), {"concept": [1, 0, 1]}, "one entry per image"),
    ],
)
def test_plot_concept_erasure_bad_input(images, shape, kwargs, match):
    with pytest.raises(ValueError, match=match):
        fp.plot_concept_erasure(images, shape, **kwargs)


# --------------------------------------------------------------------------------------------
# The book's figure style


@pytest.fixture
def _restore_rc():
    saved = matplotlib.rcParams.copy()
    yield
    matplotlib.rcParams.update(saved)


def _svg_text_sizes(fig):
    """(width of the SVG in CSS px, font sizes of its text in CSS px)."""
    import io
    import re

    buffer = io.StringIO()
    fig.savefig(buffer, format="svg")
    svg = buffer.getvalue()
    width_pt = float(re.search(r'<svg[^>]*\swidth="([\d.]+)pt"', svg).group(1))
    # matplotlib's SVG user unit is the point: a font-size of f user units is f pt = f * 4/3 px
    sizes = [float(f) * 96 / 72 for f in re.findall(r"font-size:\s*([\d.]+)px", svg)]
    return width_pt * 96 / 72, sizes, svg


@pytest.mark.usefixtures("_restore_rc")
def test_book_style_fits_the_column_with_legible_text_and_legends_outside(sweep_results):
    assert fp.book_style() is None  # a chapter's cell shows nothing
    assert matplotlib.rcParams["svg.fonttype"] == "none"
    assert matplotlib.rcParams["figure.figsize"][0] <= fp.COLUMN_WIDTH
    assert fp.COLUMN_WIDTH == pytest.approx(660 / 96)
    # a two-panel figure, as the chapters draw them, legends outside the data
    fig, axes = plt.subplots(1, 2)
    fp.plot_tradeoff(sweep_results, param="lam", ax=axes[0], legend="below")
    rng = np.random.default_rng(0)
    fp.plot_embedding(rng.normal(size=(50, 2)) * 1e6 + 3e7, rng.integers(0, 3, 50), ax=axes[1])
    width_px, sizes, svg = _svg_text_sizes(fig)
    assert width_px <= fp.COLUMN_WIDTH_PX + 1e-9
    assert sizes and min(sizes) >= 9, sorted(set(sizes))
    assert "<text" in svg  # text stays text (svg.fonttype = "none")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        legend = ax.get_legend()
        assert legend is not None
        box, data = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        overlap_w = min(box.x1, data.x1) - max(box.x0, data.x0)
        overlap_h = min(box.y1, data.y1) - max(box.y0, data.y0)
        assert overlap_w <= 0 or overlap_h <= 0, "legend drawn over the data"
        assert fig.bbox.contains(box.x0, box.y0) and fig.bbox.contains(box.x1, box.y1)


@pytest.mark.usefixtures("_restore_rc")
def test_book_style_concept_grid_fits_the_column():
    fp.book_style()
    rng = np.random.default_rng(0)
    images = {name: rng.random((10, 12)) for name in ("Original", "PCA", "Fair PCA")}
    axes = fp.plot_concept_erasure(images, (3, 4), concept=[1] * 5 + [0] * 5)
    width_px, sizes, _ = _svg_text_sizes(axes[0, 0].figure)
    assert width_px <= fp.COLUMN_WIDTH_PX + 1e-9
    assert min(sizes) >= 9


def test_axis_label_words_and_units():
    assert fp.axis_label("var_pct") == "variance explained (%)"
    assert fp.axis_label("seconds") == "running time (s)"
    assert fp.axis_label("fit_time", "s") == "fit time (s)"
    assert fp.axis_label("n_rows") == "n rows"
    # every plotting function labels its axes through the same table
    df = pd.DataFrame({"k": [1, 2, 1, 2], "method": list("aabb"), "var_pct": [10, 20, 9, 18]})
    ax = fp.plot_runtime(df, x="k", y="var_pct", logy=False)
    assert ax.get_xlabel() == "target dimension k"
    assert ax.get_ylabel() == "variance explained (%)"


def test_legend_outside_refuses_an_unknown_place():
    _, ax = plt.subplots()
    ax.plot([0, 1], label="a")
    with pytest.raises(ValueError, match="where must be 'right' or 'below'"):
        fp.legend_outside(ax, where="inside")
    assert fp.legend_outside(plt.subplots()[1]) is None  # nothing labelled: no legend


@pytest.mark.usefixtures("_restore_rc")
def test_figure_svg_is_the_same_on_every_run_and_for_last_bit_differences():
    fp.book_style()
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 2)) * 1e3 + 5e4  # far from the origin
    z = rng.integers(0, 2, 300)

    def draw(data):
        fig, ax = plt.subplots()
        fp.plot_embedding(data, z, ax=ax)
        svg = fp.figure_svg(fig)
        plt.close(fig)
        return svg

    first = draw(X)
    assert first == draw(X.copy())  # no date, no random ids
    assert "<dc:date>" not in first
    # the last bits of the data, as another BLAS kernel would give them
    assert draw(X * (1 + 1e-13)) == first
    assert re.search(r'="[^"]*\d\.\d{3,}', first) is None  # coordinates at 0.01 pt
    assert fp.figure_svg(plt.figure()) is None  # nothing drawn, nothing shown


@pytest.mark.usefixtures("_restore_rc")
def test_figure_svg_ids_do_not_carry_the_last_bits_of_the_layout():
    # constrained layout after data that differ in their last bits moves an axes by ~1e-15;
    # matplotlib hashes the clip rectangle's unrounded bounds into the clip path's id
    def draw(left):
        fig = plt.figure(layout=None)
        ax = fig.add_axes([left, 0.1, 0.8, 0.8])
        ax.plot([0, 1], [0, 1], marker="o")
        ax.grid(True)
        svg = fp.figure_svg(fig)
        plt.close(fig)
        return svg

    svg = draw(0.1)
    assert draw(0.1 + 1e-15) == svg
    ids = re.findall(r'\bid="([a-z]\d+)"', svg)
    assert ids and len(set(ids)) == len(ids)  # renamed, still distinct
    for name in ids:  # every reference points at a defined element
        assert f"#{name}" in svg
    assert re.search(r'#[a-z][0-9a-f]{10}\b', svg) is None  # no hashed reference left behind


@pytest.mark.usefixtures("_restore_rc")
@pytest.mark.parametrize("n_panels, ncols, rows", [(1, 2, 1), (2, 2, 1), (3, 2, 2), (5, 3, 2)])
def test_panel_grid_wraps_into_rows_that_fit_the_column(sweep_results, n_panels, ncols, rows):
    fp.book_style()
    fig, axes = fp.panel_grid(n_panels, ncols=ncols, panel_height=2.5)
    assert len(axes) == n_panels and len(fig.axes) == n_panels  # the unused ones are removed
    assert fig.get_size_inches() == pytest.approx((fp.COLUMN_WIDTH, 2.5 * rows))
    for ax in axes:
        fp.plot_tradeoff(sweep_results, param="lam", legend=False, ax=ax)
    legend = fp.figure_legend(fig, axes, title="method")
    assert [t.get_text() for t in legend.get_texts()] == ["Fair PCA", "PCA"]  # once each
    width_px, sizes, _ = _svg_text_sizes(fig)
    assert width_px <= fp.COLUMN_WIDTH_PX + 1e-9
    assert min(sizes) >= 9, sorted(set(sizes))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = legend.get_window_extent(renderer)
    for ax in axes:
        data = ax.get_window_extent(renderer)
        assert box.y1 <= data.y0 + 1e-6, "the figure legend covers a panel"


def test_panel_grid_and_figure_legend_bad_input():
    with pytest.raises(ValueError, match="n_panels"):
        fp.panel_grid(0)
    with pytest.raises(ValueError, match="ncols"):
        fp.panel_grid(2, ncols=0)
    fig, axes = fp.panel_grid(2)
    assert fp.figure_legend(fig, axes) is None  # nothing labelled


@pytest.mark.usefixtures("_restore_rc")
def test_experiment_figures_fit_the_column_with_legible_text():
    """The reproduction chapters' own figures (Pérez-Suay Figs. 4-6, De-Diego Figs. 2-3)."""
    from fairlab.experiments import de_diego, perez_suay

    fp.book_style()
    rows = [{"sensitive": s, "label": label, "method": label.rstrip("\\S"), "mu": mu,
             "error_mean": 0.2 + mu / 100, "error_std": 0.01, "hsic_mean": 1e-3 / (1 + mu),
             "hsic_std": 1e-4} for s in ("sex", "race", "age")
            for label in ("FKR", "FKR\\S", "KRR")
            for mu in ((0.0,) if label == "KRR" else (0.1, 1.0))]
    axes = perez_suay.plot(pd.DataFrame(rows))
    table1 = pd.DataFrame([{"dataset": name, "eta": eta, "metric": m, "mean": 1.0 / (1 + eta),
                            "std": 0.1} for name in "ABCDE" for eta in (0.0, 1.0, 2.0)
                           for m in ("cov2_y", "cov2_s")])
    for fig in (axes[0].figure, de_diego.plot_representation(table1)):
        width_px, sizes, _ = _svg_text_sizes(fig)
        assert width_px <= fp.COLUMN_WIDTH_PX + 1e-9
        # the exponent of a log axis' tick label (10⁻³) is set at 70 % of its digits, as in print
        exponents = {round(0.7 * size, 6) for size in sizes}
        assert min(f for f in sizes if round(f, 6) not in exponents) >= 9, sorted(set(sizes))
        assert all(ax.get_legend() is None for ax in fig.axes) and len(fig.legends) == 1


# --------------------------------------------------------------------------------------------
# One style per method, the paper's values beside ours, labels a reader can read

_KLEINDESSNER_FIGURE_METHODS = ["PCA", "Fair PCA", "Fair PCA-S (0.85)", "Fair Kernel PCA",
                                "FPCA (0, 0.01)", "MbF-PCA (10^-3)", "INLP", "RLACE"]


def _same_colour(a, b):
    return np.allclose(matplotlib.colors.to_rgb(a), matplotlib.colors.to_rgb(b))


def test_method_style_is_one_per_method_and_distinct_within_a_paper():
    styles = {name: fp.method_style(name) for name in fp.METHOD_STYLES}
    # the methods that share the figures of one paper look different from each other
    kleindessner = [n for n in fp.METHOD_STYLES if n not in
                    ("PLS", "Fair PLS", "LR", "FLR", "KRR", "FKR", "KPCA", "FDR", "KFDR",
                     "LEACE", "SAL", "Fair PCA-S")]  # Fair PCA-S: Fig. 4's name of (0.85)
    assert fp.method_style("Fair PCA-S") == fp.method_style("Fair PCA-S (0.85)")
    pairs = {(fp.METHOD_STYLES[n][0], styles[n]["marker"]) for n in kleindessner}
    assert len(pairs) == len(kleindessner)
    # a setting appended after " · " keeps the method's style; "\S" is the method, dashed
    assert fp.method_style("PCA · Lee et al.'s loadings") == fp.method_style("PCA")
    assert fp.method_style("FKR\\S")["linestyle"] == "--"
    assert fp.method_style("FKR\\S")["marker"] == fp.method_style("FKR")["marker"]
    assert fp.method_style("FKR")["linestyle"] == "-"
    # a name the map does not know has one style of its own, whatever the figure
    assert fp.method_style("My eraser") == fp.method_style("My eraser")
    assert fp.method_style("My eraser")["color"] in fp.PALETTE
    with pytest.raises(TypeError, match="method's name"):
        fp.method_style(3)


def _line_style(ax, label):
    line = next(ln for ln in ax.get_lines() if ln.get_label() == label)
    return line.get_color(), line.get_marker()


def test_every_plotting_function_draws_a_method_in_its_one_style():
    # the methods in two different orders: a style taken from the order (PALETTE[i]) would
    # give a method another colour in the second figure
    for order in (_KLEINDESSNER_FIGURE_METHODS, _KLEINDESSNER_FIGURE_METHODS[::-1]):
        times = pd.DataFrame([{"d": d, "method": m, "seconds": 0.1 * (i + 1) * d}
                              for i, m in enumerate(order) for d in (20, 60, 100)])
        curves = pd.DataFrame([{"method": m, "lam": lam, "accuracy": 0.8 - lam / 10 - i / 100,
                                "dp_violation": 0.1 * (1 - lam)}
                               for i, m in enumerate(order) for lam in (0.0, 0.5, 1.0)])
        ax_runtime = fp.plot_runtime(times)
        ax_tradeoff = fp.plot_tradeoff(curves, param="lam")
        box_data = times.assign(var_pct=times["seconds"])
        ax_box = fp.plot_boxplots(box_data, "var_pct", by="method")
        ax_box_hue = fp.plot_boxplots(box_data, "var_pct", by="method", hue="d")
        for name in order:
            style = fp.method_style(name)
            for ax in (ax_runtime, ax_tradeoff):
                colour, marker = _line_style(ax, name)
                assert _same_colour(colour, style["color"]) and marker == style["marker"], name
            for ax in (ax_box, ax_box_hue):
                # the boxes of a method are those around its tick, x in (i - 0.5, i + 0.5)
                i = order.index(name)
                mine = [p for p in ax.patches if isinstance(p, PathPatch)
                        and abs(p.get_path().vertices[:, 0].mean() - i) < 0.5]
                assert len(mine) == (3 if ax is ax_box_hue else 1), name
                assert all(_same_colour(p.get_facecolor()[:3], style["color"])
                           for p in mine), name
        plt.close("all")


@pytest.mark.usefixtures("_restore_rc")
def test_experiment_figures_use_the_method_styles():
    from fairlab.experiments import perez_suay

    rows = [{"sensitive": "sex", "label": label, "method": label.rstrip("\\S"), "mu": mu,
             "error_mean": 0.2 + mu / 100, "error_std": 0.01, "hsic_mean": 1e-3 / (1 + mu),
             "hsic_std": 1e-4} for label in ("FLR", "FKR", "FKR\\S")
            for mu in (0.1, 1.0)]
    ax = perez_suay.plot(pd.DataFrame(rows))[0]
    for label in ("FLR", "FKR", "FKR\\S"):
        line = next(ln for ln in ax.get_lines() if ln.get_label() == label)
        style = fp.method_style(label)
        assert _same_colour(line.get_color(), style["color"]), label
        assert line.get_marker() == style["marker"] and line.get_linestyle() == style["linestyle"]


def test_published_values_are_drawn_hollow_beside_ours():
    times = pd.DataFrame({"d": [20, 100, 20, 100], "method": ["INLP"] * 2 + ["RLACE"] * 2,
                          "seconds": [0.1, 0.8, 1.0, 9.0]})
    reported = pd.DataFrame({"d": [100, 100], "method": ["INLP", "RLACE"],
                             "seconds": [0.8, 20.0], "relation": ["≈", ">"]})
    ax = fp.plot_runtime(times, published=reported)
    hollow = [ln for ln in ax.get_lines() if ln.get_markerfacecolor() == "white"
              and len(ln.get_xdata())]
    assert sorted((float(ln.get_xdata()[0]), float(ln.get_ydata()[0])) for ln in hollow) == \
        [(100.0, 0.8), (100.0, 20.0)]
    rlace = next(ln for ln in hollow if ln.get_ydata()[0] == 20.0)
    assert _same_colour(rlace.get_markeredgecolor(), fp.method_style("RLACE")["color"])
    assert rlace.get_marker() == fp.method_style("RLACE")["marker"]
    # a bound ("> 20 s") gets an arrow; a value does not
    arrows = [t for t in ax.texts if t.arrow_patch is not None]
    assert len(arrows) == 1 and arrows[0].xy == (100.0, 20.0)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["INLP", "RLACE", fp.PAPER_LABEL]
    # without published values, no paper entry
    ax = fp.plot_runtime(times)
    assert fp.PAPER_LABEL not in [t.get_text() for t in ax.get_legend().get_texts()]
    with pytest.raises(ValueError, match="not in the data"):
        fp.plot_runtime(times, published=reported.drop(columns="seconds"))


def test_de_diego_figures_draw_the_printed_table_beside_ours():
    from fairlab import published
    from fairlab.experiments import de_diego

    paper = published.table("dediego2025", "table1")
    ours = paper.assign(mean=paper["mean"] * 1.1)[["dataset", "eta", "metric", "mean", "std"]]
    ours = ours[ours["metric"] != "reconstruction_error"]
    fig = de_diego.plot_representation(ours, published=paper)
    assert fig.get_size_inches()[0] <= fp.COLUMN_WIDTH + 1e-9
    n_datasets = ours["dataset"].nunique()
    assert len(fig.axes) == n_datasets and max(
        ax.get_subplotspec().colspan.stop for ax in fig.axes) <= 2  # two panels per row
    ax = fig.axes[0]
    adult = paper[(paper["dataset"] == ax.get_title()) & (paper["metric"] == "cov2_s")]
    hollow = [ln for ln in ax.get_lines() if ln.get_markerfacecolor() == "white"
              and len(ln.get_xdata()) == len(adult)]
    printed = sorted(zip(adult["eta"], adult["mean"]))
    assert any(sorted(zip(ln.get_xdata(), ln.get_ydata())) == printed for ln in hollow)
    assert fp.PAPER_LABEL in [t.get_text() for t in fig.legends[0].get_texts()]


def test_tradeoff_labels_are_readers_words_and_ticks_do_not_run_together():
    # a parameter column named "param" holding λ for one method and ε for another (Fig. 4)
    curves = pd.DataFrame([{"method": m, "param": p, "error": 0.2 + p / 10,
                            "violation": 0.0031 + 0.0004 * p}
                           for m, grid in (("Fair PCA", (0.0, 0.5, 1.0)),
                                           ("Reductions", (0.001, 0.05, 0.2)))
                           for p in grid])
    _, ax = plt.subplots(figsize=(fp.COLUMN_WIDTH / 2, 3.0), layout="constrained")
    fp.plot_tradeoff(curves, x="violation", y="error", param="param", ax=ax, legend=False)
    assert not any("param" in t.get_text() for t in ax.texts)  # no column name shown
    _, ax = plt.subplots(figsize=(fp.COLUMN_WIDTH / 2, 3.0), layout="constrained")
    fp.plot_tradeoff(curves, x="violation", y="error", param="param", legend=False, ax=ax,
                     param_labels={"Reductions": "ε", None: "λ"})
    texts = sorted(t.get_text() for t in ax.texts)
    # both curves start at (3.1e-3, 0.2): the second label there ("ε = 0.001") is left out
    assert texts == ["ε = 0.2", "λ = 0", "λ = 1"]
    # the narrow range of violations (3.1e-3 to 3.5e-3) in half the column: tick labels apart
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    for axis in (ax.xaxis, ax.yaxis):
        boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels()
                 if t.get_visible() and t.get_text()]
        assert 2 <= len(boxes) <= 6
        for a, b in zip(boxes, boxes[1:]):
            assert not a.overlaps(b), [t.get_text() for t in axis.get_ticklabels()]


def test_tradeoff_labels_never_sit_on_each_other():
    # two curves that start at the same point: one "λ = 0" label there, not two on top of each other
    curves = pd.DataFrame([{"method": m, "lam": lam, "accuracy": 0.8 - lam * (0.1 + i / 10),
                            "dp_violation": 0.2 * (1 - lam)}
                           for i, m in enumerate(["Fair PCA", "Fair PCA-S"])
                           for lam in (0.0, 0.5, 1.0)])
    ax = fp.plot_tradeoff(curves, param="lam", legend=False)
    starts = [t for t in ax.texts if t.xy == (0.2, 0.8)]
    assert len(starts) == 1
    assert sorted(t.get_text() for t in ax.texts) == ["λ = 0", "λ = 1", "λ = 1"]  # the ends differ
