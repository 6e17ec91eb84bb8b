"""Position analysis: a deal up to a move (position.py), every legal move valued by rollouts with common
random numbers and a stopping rule (evaluate.py), the verdict and tables (render.py). `simdom analyze`.

The package is also the library's ``simdom.analyze(...)``: calling it calls :func:`simdom.analyze.evaluate.analyze`, documented as :func:`simdom.api.analyze`
(a package and a function cannot share the name ``simdom.analyze`` otherwise, since importing the
package sets that attribute)."""
import sys
import types


class _CallableModule(types.ModuleType):
    def __call__(self, *args, **kwargs):
        from .evaluate import analyze
        return analyze(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
