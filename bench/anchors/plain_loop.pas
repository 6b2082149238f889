{ bench/fidelity's anchor for pascal/openssl sha256: a plain loop around the
  calls the Pascal runner makes per message (runners/pascal/lib_openssl.pas:
  EVP_DigestInit/Update/Final on one EVP_MD_CTX), CLOCK_MONOTONIC read around
  batches of ~10 ms, no harness. Prints the median ns per call.

    plain_loop SIZE SECONDS }
program plain_loop;

{$mode objfpc}{$H+}

uses
  SysUtils, ctypes, openssl, Linux, UnixType;

var
  Ctx: PEVP_MD_CTX;
  Md: PEVP_MD;
  Msg: array of byte;
  Output: array[0..63] of byte;
  Sink: byte = 0;

function MonotonicNs: int64;
var
  Ts: TTimeSpec;
begin
  clock_gettime(CLOCK_MONOTONIC, @Ts);
  Result := int64(Ts.tv_sec) * 1000000000 + Ts.tv_nsec;
end;

function Batch(N: int64): int64;
var
  I: int64;
  Len: cuint;
  Start: int64;
begin
  Start := MonotonicNs;
  for I := 1 to N do
  begin
    EVP_DigestInit(Ctx, Md);
    EVP_DigestUpdate(Ctx, @Msg[0], Length(Msg));
    EVP_DigestFinal(Ctx, @Output[0], @Len);
    Sink := Sink xor Output[0];
  end;
  Result := MonotonicNs - Start;
end;

procedure Main;
var
  N, Stop: int64;
  PerCall: array of double;
  I, J, Count: integer;
  T: double;
begin
  if not InitSSLInterface then
  begin
    DLLVersions[High(DLLVersions)] := '.3'; { as lib_openssl.pas: OpenSSL 3's soname }
    if not InitSSLInterface then
      raise Exception.Create('libcrypto not found');
  end;
  Ctx := EVP_MD_CTX_new;
  Md := EVP_get_digestbyname('SHA256');
  SetLength(Msg, StrToInt(ParamStr(1)));
  for I := 0 to High(Msg) do
    Msg[I] := byte(I * 31 + 7);
  N := 1;
  while Batch(N) < 10000000 do
    N := N * 2;
  Count := 0;
  Stop := MonotonicNs + Round(StrToFloat(ParamStr(2)) * 1e9);
  repeat
    if Count = Length(PerCall) then
      SetLength(PerCall, 2 * Count + 16);
    PerCall[Count] := Batch(N) / N;
    Inc(Count);
  until MonotonicNs >= Stop;
  for I := 1 to Count - 1 do { insertion sort: a few hundred values }
  begin
    T := PerCall[I];
    J := I - 1;
    while (J >= 0) and (PerCall[J] > T) do
    begin
      PerCall[J + 1] := PerCall[J];
      Dec(J);
    end;
    PerCall[J + 1] := T;
  end;
  if Count mod 2 = 1 then
    T := PerCall[Count div 2]
  else
    T := (PerCall[Count div 2 - 1] + PerCall[Count div 2]) / 2;
  WriteLn('{"median_ns": ', FloatToStr(T), ', "batches": ', Count, ', "iterations": ', N,
    ', "sink": ', Sink, '}');
end;

begin
  DefaultFormatSettings.DecimalSeparator := '.';
  Main;
end.
