/*
 * Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
 *
 * A minimal HotSpot disassembler plugin (hsdis) on capstone, for -XX:+PrintAssembly and JMH's perfasm profiler
 * on this project's machines: JDKs ship without one, and Debian's libhsdis0-fcml does not export the
 * decode_instructions_virtual entry point that JDK 17 looks for, so the JDK falls back to hex dumps.
 * Built by build.sh in this directory; x86-64 only.
 */
#include <stdint.h>
#include <capstone/capstone.h>

typedef void* (*event_callback_t)(void*, const char*, void*);
typedef int (*printf_callback_t)(void*, const char*, ...);

void* decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char* buffer, uintptr_t length,
                                  event_callback_t event_callback, void* event_stream,
                                  printf_callback_t printf_callback, void* printf_stream,
                                  const char* options, int newline) {
    csh handle;
    cs_insn* insn;
    size_t count;
    (void) end_va;
    (void) options;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) {
        return NULL;
    }
    count = cs_disasm(handle, buffer, length, start_va, 0, &insn);
    for (size_t i = 0; i < count; i++) {
        event_callback(event_stream, "insn", (void*) (uintptr_t) insn[i].address);
        printf_callback(printf_stream, "%s\t%s", insn[i].mnemonic, insn[i].op_str);
        event_callback(event_stream, "/insn", (void*) (uintptr_t) (insn[i].address + insn[i].size));
        if (newline) {
            printf_callback(printf_stream, "\n");
        }
    }
    if (count > 0) {
        cs_free(insn, count);
    }
    cs_close(&handle);
    return NULL;
}
