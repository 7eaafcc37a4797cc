"""ckm: constrained k-means (must-link, cannot-link, cluster sizes, sample weights) with every constraint
honoured strictly, from the C library libckm.

    >>> from ckm import ConstrainedKMeans
    >>> km = ConstrainedKMeans(3, size_min=45, size_max=55, random_state=1).fit(X)
"""

try:
    import numpy  # noqa: F401
    import sklearn  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the machine
    raise ImportError("ckm needs numpy and scikit-learn (Debian: apt-get install python3-numpy python3-sklearn; "
                      "elsewhere: pip install numpy scikit-learn): %s" % exc) from exc

from ._core import InfeasibleError, NoSolutionError, algorithms, pca, version
from .estimator import ConstrainedKMeans
from .helpers import certify, check, generate_constraints, read_constraints, report

__version__ = "0.4.0"
__all__ = ["ConstrainedKMeans", "InfeasibleError", "NoSolutionError", "algorithms", "certify", "check",
           "generate_constraints", "pca", "read_constraints", "report", "version", "__version__"]
