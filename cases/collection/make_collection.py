"""Writes a collection of ParaView files for cases/collection/train.yml: case k is a
multiblock (.vtm) shaped like ParaView's OpenFOAM reader output, block "internalMesh" an
unstructured triangle mesh of the unit square (its own resolution and jittered points per
case: a different mesh per case) and block "boundary/wall" the wall y = 0 as polydata lines.
On the internal mesh the analytic boundary-layer field
    u(x, y) = (1 - exp(-Re * y)) * (1 + 0.3 * x)        (point array "u")
with the case's Reynolds-like parameter Re. manifest.csv lists the training cases (file, Re),
heldout.csv one case whose Re lies between the training ones, for `surrox evaluate`.

Run with ParaView's Python (its VTK writes the files), or plain VTK Python where ParaView is
absent:
    scripts/pvpython cases/collection/make_collection.py OUTDIR [CASES]
"""
import math
import os
import random
import sys

from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkPoints
from vtkmodules.vtkCommonDataModel import (
    vtkCellArray,
    vtkCompositeDataSet,
    vtkMultiBlockDataSet,
    vtkPolyData,
    vtkUnstructuredGrid,
)
from vtkmodules.vtkIOXML import vtkXMLMultiBlockDataWriter

VTK_TRIANGLE = 5


def internal_mesh(n, re, seed):
    """n x n points of the unit square, interior points jittered, split into triangles."""
    rng = random.Random(seed)
    points = vtkPoints()
    u = vtkDoubleArray()
    u.SetName("u")
    h = 1.0 / (n - 1)
    for j in range(n):
        for i in range(n):
            x, y = i * h, j * h
            if 0 < i < n - 1 and 0 < j < n - 1:
                x += rng.uniform(-0.25, 0.25) * h
                y += rng.uniform(-0.25, 0.25) * h
            points.InsertNextPoint(x, y, 0.0)
            u.InsertNextValue((1.0 - math.exp(-re * y)) * (1.0 + 0.3 * x))
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    for j in range(n - 1):
        for i in range(n - 1):
            a = i + n * j
            for tri in ((a, a + 1, a + n + 1), (a, a + n + 1, a + n)):
                grid.InsertNextCell(VTK_TRIANGLE, 3, tri)
    grid.GetPointData().AddArray(u)
    return grid


def wall(n):
    points = vtkPoints()
    lines = vtkCellArray()
    for i in range(n):
        points.InsertNextPoint(i / (n - 1), 0.0, 0.0)
    for i in range(n - 1):
        lines.InsertNextCell(2)
        lines.InsertCellPoint(i)
        lines.InsertCellPoint(i + 1)
    surface = vtkPolyData()
    surface.SetPoints(points)
    surface.SetLines(lines)
    return surface


def write_case(path, n, re, seed):
    boundary = vtkMultiBlockDataSet()
    boundary.SetNumberOfBlocks(1)
    boundary.SetBlock(0, wall(n))
    boundary.GetMetaData(0).Set(vtkCompositeDataSet.NAME(), "wall")
    root = vtkMultiBlockDataSet()
    root.SetNumberOfBlocks(2)
    root.SetBlock(0, internal_mesh(n, re, seed))
    root.GetMetaData(0).Set(vtkCompositeDataSet.NAME(), "internalMesh")
    root.SetBlock(1, boundary)
    root.GetMetaData(1).Set(vtkCompositeDataSet.NAME(), "boundary")
    writer = vtkXMLMultiBlockDataWriter()
    writer.SetInputData(root)
    writer.SetFileName(path)
    if writer.Write() != 1:
        raise SystemExit("cannot write " + path)


def main(out, cases):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "manifest.csv"), "w") as manifest:
        manifest.write("# written by make_collection.py: file, then the case's parameter\n")
        manifest.write("file,Re\n")
        for k in range(cases):
            re = 2.0 + 6.0 * k / max(cases - 1, 1)
            name = "case_%02d.vtm" % k
            write_case(os.path.join(out, name), 9 + k % 4, re, k)
            manifest.write("%s,%.17g\n" % (name, re))
    with open(os.path.join(out, "heldout.csv"), "w") as heldout:
        heldout.write("file,Re\nheldout.vtm,5.3\n")
    write_case(os.path.join(out, "heldout.vtm"), 14, 5.3, 1000)
    print("wrote %d cases and heldout.vtm to %s" % (cases, out))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12)
