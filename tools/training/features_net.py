"""Split a classifier into its features net and its last layer, for `vision adapt` to refit that layer.

    /tmp/tvenv/bin/python -m tools.training.features_net vision/models/dicenet_wide.int8.onnx \
        vision/models/dicenet.int8.onnx

For each classifier `<name>.onnx` it writes `<name>.features.onnx` beside it: the same graph
without its last layer (a Gemm, float in the 8-bit nets too), whose output is the numbers that
layer weighs into the seven logits; and `<name>.features.json`: the classifier's metadata with
that layer's weight and bias (`head`) and the file it came from (`features_of`). The features
net followed by that layer gives the classifier's logits to float rounding (`vision.heads`;
tests/vision/test_heads.py holds both runtimes to it). Needs the training tools' `onnx`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.heads import features_path


def split_last_layer(model: Path) -> Path:
    """Write `model`'s features net and its metadata beside it; the features net's path.
    ValueError when the graph does not end in the one Gemm a classifier's head ends in."""
    graph_model = onnx.load(str(model))
    graph = graph_model.graph
    last = graph.node[-1]
    if last.op_type != "Gemm" or len(graph.output) != 1 or last.output[0] != graph.output[0].name:
        raise ValueError(f"{model}: its graph does not end in one Gemm layer giving its output")
    settings = {attribute.name: helper.get_attribute_value(attribute) for attribute in last.attribute}
    if settings.get("transB") != 1 or settings.get("alpha", 1.0) != 1.0 or settings.get("beta", 1.0) != 1.0:
        raise ValueError(f"{model}: its last Gemm is not features x weight^T + bias ({settings})")
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    weight = numpy_helper.to_array(initializers[last.input[1]])
    bias = numpy_helper.to_array(initializers[last.input[2]])
    graph.node.remove(last)
    for name in last.input[1:]:
        graph.initializer.remove(initializers[name])
    del graph.output[:]
    graph.output.append(helper.make_tensor_value_info(last.input[0], TensorProto.FLOAT, ["N", int(weight.shape[1])]))
    onnx.checker.check_model(graph_model)
    out = features_path(model)
    onnx.save(graph_model, str(out))
    meta = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    meta.update({"features_of": model.name, "output": f"{weight.shape[1]} features the last layer weighs",
                 "head": {"weight": weight.tolist(), "bias": bias.tolist()}})
    out.with_suffix(".json").write_text(json.dumps(meta) + "\n", encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("classifiers", nargs="+", type=Path)
    for model in parser.parse_args().classifiers:
        print(split_last_layer(model))


if __name__ == "__main__":
    main()
