"""Opens a surrox multiblock sidecar (.xdmf) with ParaView's XDMF reader and prints, on one
line starting with SURROX_JSON, each block of the collection: name, class, points, cells and
the range of component 0 of every point and cell array. Used by
tests/io/multiblock_paraview_test.cpp; run as
    scripts/pvpython check_xdmf_blocks_with_pvpython.py FILE.xdmf
"""
import json
import sys

from paraview import servermanager, simple
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet


def main(path):
    reader = simple.XDMFReader(FileNames=[path])
    reader.UpdatePipeline()
    data = servermanager.Fetch(reader)
    blocks = {"class": data.GetClassName(), "blocks": {}}
    if data.IsA("vtkMultiBlockDataSet"):
        for index in range(data.GetNumberOfBlocks()):
            block = data.GetBlock(index)
            arrays = {}
            for kind, fields in (("point", block.GetPointData()), ("cell", block.GetCellData())):
                for a in range(fields.GetNumberOfArrays()):
                    array = fields.GetArray(a)
                    arrays[kind + ":" + array.GetName()] = list(array.GetRange(0))
            blocks["blocks"][data.GetMetaData(index).Get(vtkCompositeDataSet.NAME())] = {
                "class": block.GetClassName(),
                "points": block.GetNumberOfPoints(),
                "cells": block.GetNumberOfCells(),
                "arrays": arrays,
            }
    print("SURROX_JSON " + json.dumps(blocks))


if __name__ == "__main__":
    main(sys.argv[1])
