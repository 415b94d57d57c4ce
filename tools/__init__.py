"""Development tools that are not the running app: the synthetic scene generator, the training
of the learned dice models and the demo frames maker.

They run on a development machine. Nothing in `app`, `vision` or `hardware` imports this package
(`python -m vision synth` loads `tools.synth` only when that command runs; tests/test_layers.py).
"""

import vision.onnx_net  # noqa: F401 - switches onnxruntime's telemetry off before any tool imports it
