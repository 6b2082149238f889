{ The timed loop: batches of calls between two reads of CLOCK_MONOTONIC,
  every output byte folded into a sink the optimiser cannot drop. }
unit timing;

{$mode objfpc}{$H+}

interface

uses
  fpjson, registry;

type
  TBenchCall = record
    Prim: PPrimitive;
    Msg: PByte;
    Len: PtrUInt;
    Output: PByte;
  end;

  { A comparison of N bytes, C calling convention (CRYPTO_memcmp's). }
  TCompareFn = function(A, B: Pointer; N: PtrUInt): longint; cdecl;

function MonotonicNs: int64;
{ One timed comparison (the leak request) on libc's clock_gettime, which reads
  the vDSO: tens of ns, where the syscall above costs hundreds. }
function TimeCompare(Cmp: TCompareFn; A, B: Pointer; N: PtrUInt): int64;
function TimeBatches(const Call: TBenchCall; Iterations, Batches: int64;
  out Ok: boolean): TJSONArray;

var
  { Read by nobody; written so no digest call is dead code. }
  Sink: byte = 0;

implementation

uses
  Linux, UnixType;

{ FPC's Linux.clock_gettime is a direct syscall (no vDSO): a few hundred ns,
  read twice per batch of ~10 ms. }
function MonotonicNs: int64;
var
  Ts: TTimeSpec;
begin
  clock_gettime(CLOCK_MONOTONIC, @Ts);
  Result := int64(Ts.tv_sec) * 1000000000 + Ts.tv_nsec;
end;

function LibcClockGettime(Clk: longint; Ts: PTimeSpec): longint; cdecl;
  external 'c' name 'clock_gettime';

function TimeCompare(Cmp: TCompareFn; A, B: Pointer; N: PtrUInt): int64;
var
  T0, T1: TTimeSpec;
  R: longint;
begin
  LibcClockGettime(CLOCK_MONOTONIC, @T0);
  R := Cmp(A, B, N);
  LibcClockGettime(CLOCK_MONOTONIC, @T1);
  Sink := Sink xor byte(R);
  Result := (int64(T1.tv_sec) - int64(T0.tv_sec)) * 1000000000 + (T1.tv_nsec - T0.tv_nsec);
end;

function TimeBatch(const Call: TBenchCall; Iterations: int64; var Ok: boolean): int64;
var
  I: int64;
  Fn: TDigestFn;
  Ctx: Pointer;
  Start: int64;
begin
  Fn := Call.Prim^.Fn;
  Ctx := Call.Prim^.Ctx;
  Start := MonotonicNs;
  for I := 1 to Iterations do
  begin
    if not Fn(Ctx, Call.Msg, Call.Len, Call.Output) then
      Ok := False;
    Sink := Sink xor Call.Output^;
  end;
  Result := MonotonicNs - Start;
end;

function TimeBatches(const Call: TBenchCall; Iterations, Batches: int64;
  out Ok: boolean): TJSONArray;
var
  B: int64;
  Ns: int64;
begin
  Ok := True;
  Result := TJSONArray.Create;
  for B := 1 to Batches do
  begin
    Ns := TimeBatch(Call, Iterations, Ok);
    Result.Add(TJSONObject.Create(['iterations', Iterations, 'ns', Ns]));
  end;
end;

end.
