"""Opens each file given on the command line with ParaView (paraview.simple.OpenDataFile),
updates it and prints, on one line starting with SURROX_JSON, what ParaView sees: number of
points and cells, time steps, and for every point/cell array its components and the range of
component 0. Used by tests/io/pvpython_test.cpp; run as
    pvpython --force-offscreen-rendering check_with_pvpython.py FILE...
"""
import json
import sys

from paraview import simple


def arrays(collection):
    out = {}
    for name in collection.keys():
        array = collection[name]
        out[name] = {"components": array.GetNumberOfComponents(), "range": list(array.GetRange(0))}
    return out


def describe(path):
    reader = simple.OpenDataFile(path)
    if reader is None:
        return {"error": "ParaView has no reader for this file"}
    times = list(getattr(reader, "TimestepValues", []) or [])
    if not isinstance(times, list):
        times = [times]
    reader.UpdatePipeline(times[-1] if times else 0.0)
    info = reader.GetDataInformation()
    return {
        "points": info.GetNumberOfPoints(),
        "cells": info.GetNumberOfCells(),
        "times": times,
        "point_arrays": arrays(reader.PointData),
        "cell_arrays": arrays(reader.CellData),
    }


def main(paths):
    result = {}
    for path in paths:
        try:
            result[path] = describe(path)
        except Exception as error:  # report, do not stop: the C++ test says which file failed
            result[path] = {"error": repr(error)}
    print("SURROX_JSON " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
