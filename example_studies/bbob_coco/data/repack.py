"""Repack a COCO archive keeping one dimension: its .info blocks and its .dat/.tdat files.

Usage: python repack.py SOURCE.tgz TARGET.tgz DIMENSION

Member files are copied byte for byte; .info files keep only the blocks (header, comment and
data line) whose header says ``DIM = DIMENSION``; .rdat and other files are dropped.
"""

import io
import re
import sys
import tarfile


def keep_dimension(info: str, dimension: int) -> str:
    """The blocks of an .info file whose header has ``DIM = dimension``."""
    blocks: list[list[str]] = []
    for line in info.splitlines(keepends=True):
        if "funcId" in line and "=" in line:
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    wanted = [b for b in blocks if re.search(rf"DIM = {dimension}\b", b[0])]
    return "".join("".join(b) for b in wanted)


def main(source: str, target: str, dimension: int) -> None:
    with tarfile.open(source, "r:*") as tin, tarfile.open(target, "w:gz", compresslevel=9) as tout:
        for member in tin:
            if not member.isfile():
                continue
            handle = tin.extractfile(member)
            assert handle is not None
            data = handle.read()
            if member.name.endswith(".info"):
                text = keep_dimension(data.decode("latin-1"), dimension)
                if not text:
                    continue
                data = text.encode("latin-1")
            elif not member.name.endswith((f"_DIM{dimension}.dat", f"_DIM{dimension}.tdat")):
                continue
            info = tarfile.TarInfo(member.name)
            info.size = len(data)
            info.mtime = 0
            tout.addfile(info, io.BytesIO(data))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
