/* Wine 8.0 (Debian 12's) has no bcryptprimitives.dll, whose ProcessPrng the
   Go runtime loads at start on Windows: without it no Go program runs under
   that Wine. This stand-in fills the buffer from RtlGenRandom, for running
   toolsearch's Windows test binaries under Wine in .ci/run; it is never
   part of toolsearch. */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n)) {
            return FALSE;
        }
        data += n;
        len -= n;
    }
    return TRUE;
}
