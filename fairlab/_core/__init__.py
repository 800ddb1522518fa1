"""What more than one estimator uses: linear algebra (bases, eigensolvers, the solver rule, the sign
convention, rounding floors), validation and the encoding of sensitive attributes, kernels, streamed
moments, HSIC, the covariance gap, the feature-space constraint of the kernel methods
(``constraints``), Nyström features (``nystroem``) and the per-component steps of the PLS
estimators (``pls_steps``).

This layer never imports an estimator, a metric, an experiment or a data set; everything above it
may import it (the layer contract of ``tests/test_layers.py``).
"""
