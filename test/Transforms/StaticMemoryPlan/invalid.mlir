// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(quantc-static-memory-plan{alignment=48}))" -verify-diagnostics

// expected-error @below {{quantc-static-memory-plan: alignment must be a power of two, got 48}}
func.func @f() {
  return
}
