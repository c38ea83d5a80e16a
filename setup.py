"""`pip install --no-build-isolation .`: the `sling` package, its extension built by CMake.

The extension is the CMake target `sling_python` (python/CMakeLists.txt), configured for the Python
that runs pip and built in build-pip/ with ccache when it is there, as ./sling builds; the pure-Python
files come from python/sling/.  docs/python.md shows the whole installation.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# Everything pip's build writes goes under this folder (ignored by git), none beside the sources.
BUILD = Path(os.environ.get("SLING_PIP_BUILD_DIR", ROOT / "build-pip"))
BUILD.mkdir(parents=True, exist_ok=True)


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(sling VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    """Configures and builds sling_python, then copies the extension where setuptools wants it."""

    def build_extension(self, ext: Extension) -> None:
        build_dir = BUILD / (sysconfig.get_config_var("SOABI") or "python")
        env = dict(os.environ)
        args = ["-S", str(ROOT), "-B", str(build_dir), "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release", f"-DSLING_PYTHON={sys.executable}",
                "-DSLING_BUILD_TESTS=OFF", "-DSLING_BUILD_BENCH=OFF"]
        if shutil.which("ccache"):
            # The cache and settings of scripts/bootstrap.sh: objects built by ./sling are hits.
            args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            env.setdefault("CCACHE_DIR", os.path.join(
                os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ccache"))
            env.setdefault("CCACHE_BASEDIR", str(ROOT))
            env.setdefault("CCACHE_NOHASHDIR", "1")
            env.setdefault("CCACHE_SLOPPINESS", "pch_defines,time_macros,include_file_mtime,"
                           "include_file_ctime")
        if not (build_dir / "build.ninja").exists():
            subprocess.run(["cmake", *args], check=True, env=env)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "sling_python",
                        "--parallel", str(os.cpu_count() or 1)], check=True, env=env)
        built = build_dir / "python" / "sling"
        extension = next(built.glob("_sling*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(extension, target)
        shutil.copyfile(built / "_build_info.py", target.parent / "_build_info.py")


setup(
    version=project_version(),
    packages=["sling"],
    package_dir={"sling": "python/sling"},
    package_data={"sling": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("sling._sling", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD / "setuptools")},
             "egg_info": {"egg_base": str(BUILD)}},
    zip_safe=False,
)
