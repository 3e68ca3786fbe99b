"""Writes, with ParaView's own VTK (pvbatch), a .vtm shaped like the output of ParaView's
OpenFOAM reader: block "internalMesh" (vtkUnstructuredGrid, a clipped wavelet with point and
cell arrays) and block "boundary" holding patches "inlet" (vtkPolyData, a sphere surface) and
"outlet" (vtkPolyData, a plane), plus a top-level "probe" image block. Prints, on one line
starting with SURROX_JSON, each leaf's name path, class, points, cells and array ranges.
Used by tests/io/multiblock_paraview_test.cpp; run as
    scripts/pvpython write_multiblock_with_paraview.py OUT.vtm
"""
import json
import sys

from paraview import simple
from paraview import servermanager
from vtkmodules.vtkCommonDataModel import vtkCompositeDataSet, vtkMultiBlockDataSet
from vtkmodules.vtkIOXML import vtkXMLMultiBlockDataWriter


def fetch(proxy):
    data = servermanager.Fetch(proxy)
    copy = data.NewInstance()
    copy.DeepCopy(data)
    return copy


def main(path):
    wavelet = simple.Wavelet(WholeExtent=[-4, 4, -4, 4, -4, 4])
    clip = simple.Clip(Input=wavelet, ClipType="Plane")
    clip.ClipType.Normal = [1.0, 0.3, 0.0]
    cells = simple.PointDatatoCellData(Input=clip)
    cells.PassPointData = 1
    sphere = simple.Sphere(ThetaResolution=12, PhiResolution=8)
    plane = simple.Plane(XResolution=3, YResolution=2)
    probe = simple.Wavelet(WholeExtent=[0, 3, 0, 2, 0, 0])

    boundary = vtkMultiBlockDataSet()
    boundary.SetNumberOfBlocks(2)
    for index, (name, proxy) in enumerate((("inlet", sphere), ("outlet", plane))):
        boundary.SetBlock(index, fetch(proxy))
        boundary.GetMetaData(index).Set(vtkCompositeDataSet.NAME(), name)
    root = vtkMultiBlockDataSet()
    root.SetNumberOfBlocks(3)
    for index, (name, block) in enumerate(
        (("internalMesh", fetch(cells)), ("boundary", boundary), ("probe", fetch(probe)))
    ):
        root.SetBlock(index, block)
        root.GetMetaData(index).Set(vtkCompositeDataSet.NAME(), name)
    writer = vtkXMLMultiBlockDataWriter()
    writer.SetInputData(root)
    writer.SetFileName(path)
    if writer.Write() != 1:
        raise SystemExit("vtkXMLMultiBlockDataWriter failed")

    leaves = {}

    def describe(block, prefix):
        for index in range(block.GetNumberOfBlocks()):
            child = block.GetBlock(index)
            name = prefix + block.GetMetaData(index).Get(vtkCompositeDataSet.NAME())
            if child.IsA("vtkMultiBlockDataSet"):
                describe(child, name + "/")
                continue
            arrays = {}
            for kind, data in (("point", child.GetPointData()), ("cell", child.GetCellData())):
                for a in range(data.GetNumberOfArrays()):
                    array = data.GetArray(a)
                    if array is not None:
                        arrays[kind + ":" + array.GetName()] = list(array.GetRange(0))
            leaves[name] = {
                "class": child.GetClassName(),
                "points": child.GetNumberOfPoints(),
                "cells": child.GetNumberOfCells(),
                "arrays": arrays,
            }

    describe(root, "")
    print("SURROX_JSON " + json.dumps(leaves))


if __name__ == "__main__":
    main(sys.argv[1])
