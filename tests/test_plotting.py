"""Tests of fairlab.plotting: every function returns labelled Axes and refuses bad data."""

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
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
