{ cryptobench runner for Free Pascal: protocol v1 (docs/protocol.md) over
  stdin/stdout, one request per line. }
program runner;

{$mode objfpc}{$H+}{$macro on}

uses
  SysUtils, fpjson, cpu, protocol, msggen, registry, timing, lib_fpchash, lib_paszlib,
  lib_openssl, leak, reqlimits;

{$ifndef BUILDFLAGS}
  {$define BUILDFLAGS:='unknown (not built by the Makefile)'}
{$endif}

var
  Libs: TLibraries;
  OpenSSLStatus: string = 'loaded';
  EmptyMsg: byte = 0;

procedure LoadLibraries;
var
  Lib: TLibrary;
  Reason: string;
begin
  Libs := nil;
  Insert(FpcHashLibrary, Libs, Length(Libs));
  Insert(PaszlibLibrary, Libs, Length(Libs));
  if OpenSSLLibrary(Lib, Reason) then
    Insert(Lib, Libs, Length(Libs))
  else
  begin
    OpenSSLStatus := 'not offered: ' + Reason;
    WriteLn(StdErr, 'pascal runner: openssl ', OpenSSLStatus);
  end;
end;

function RuntimeInfo: TJSONObject;
var
  Details: TJSONObject;
begin
  Details := TJSONObject.Create([
    'compiler', 'Free Pascal ' + {$I %FPCVERSION%} + ' for ' + {$I %FPCTARGETCPU%} + '-' +
    {$I %FPCTARGETOS%},
    'flags', BUILDFLAGS,
    'library_units', 'precompiled by the distribution (fp-units-*); the flags apply to ' +
    'the runner''s own code (dispatch and timed loop)',
    'clock', 'clock_gettime(CLOCK_MONOTONIC) via FPC''s Linux unit (syscall)',
    'openssl', OpenSSLStatus]);
  Result := TJSONObject.Create(['name', 'fpc', 'version', {$I %FPCVERSION%}, 'details', Details]);
end;

function CpuInfo: TJSONObject;
var
  Features: TJSONObject;
begin
  Features := TJSONObject.Create(['aes', AESSupport, 'avx', AVXSupport, 'avx2', AVX2Support,
    'fma', FMASupport, 'popcnt', POPCNTSupport, 'sse3', is_sse3_cpu]);
  Result := TJSONObject.Create(['features', Features, 'source', 'FPC rtl unit cpu (CPUID)']);
end;

function LibraryInfo(const Lib: TLibrary): TJSONObject;
var
  Prims: TJSONObject;
  P: TPrimitive;
begin
  Prims := TJSONObject.Create;
  for P in Lib.Primitives do
    Prims.Add(P.Id, TJSONObject.Create(['operations', TJSONArray.Create(['digest']),
      'native', P.Native]));
  Result := TJSONObject.Create(['library', Lib.Name, 'version', Lib.Version,
    'backend', TJSONObject.Create(['name', Lib.BackendName, 'version', Lib.BackendVersion]),
    'code_path', Lib.CodePath, 'notes', Lib.Notes, 'primitives', Prims]);
end;

function Hello: TJSONObject;
var
  Impls: TJSONArray;
  Lib: TLibrary;
begin
  Impls := TJSONArray.Create;
  for Lib in Libs do
    Impls.Add(LibraryInfo(Lib));
  Result := TJSONObject.Create(['protocol', 1, 'generators', TJSONArray.Create([GENERATOR]),
    'runtime', RuntimeInfo, 'cpu', CpuInfo, 'implementations', Impls]);
end;

{ The primitive a compute/bench request names; only digests exist here. }
function Resolve(Request: TJSONObject): PPrimitive;
var
  Lib: PLibrary;
  Operation: string;
begin
  Lib := nil;
  if Request.Find('impl') <> nil then
    Lib := FindLibrary(Libs, FieldString(Request, 'impl'));
  Result := FindPrimitive(Lib, FieldString(Request, 'primitive'));
  Operation := FieldString(Request, 'operation');
  if Operation <> 'digest' then
    Fail('unsupported', Result^.Id + '/' + Operation + ' is not offered');
end;

{ No primitive here takes a parameter; fresh_context is accepted and ignored. }
procedure CheckParams(Request: TJSONObject; Prim: PPrimitive);
var
  Params: TJSONObject;
  I: integer;
begin
  Params := FieldObject(Request, 'params', False);
  if Params = nil then
    Exit;
  for I := 0 to Params.Count - 1 do
    if Params.Names[I] <> 'fresh_context' then
      Fail('invalid_params', Prim^.Id + ' takes no parameter "' + Params.Names[I] + '"')
    else if Params.Items[I].JSONType <> jtBoolean then
      Fail('bad_request', 'params.fresh_context must be a boolean');
end;

{ Decodes inputs.msg and checks params: everything a call needs. }
function Prepare(Request: TJSONObject; out Msg: TBytes): TBenchCall;
var
  Inputs: TJSONObject;
begin
  Result := Default(TBenchCall);
  Result.Prim := Resolve(Request);
  Inputs := FieldObject(Request, 'inputs', True);
  Msg := MsgInput(Inputs);
  CheckParams(Request, Result.Prim);
  Result.Len := Length(Msg);
  Result.Msg := @EmptyMsg;
  if Result.Len > 0 then
    Result.Msg := @Msg[0];
end;

{ One untimed call; its output as hex. }
function CallOnce(const Call: TBenchCall): string;
begin
  if not Call.Prim^.Fn(Call.Prim^.Ctx, Call.Msg, Call.Len, Call.Output) then
    Fail('internal', Call.Prim^.Id + ': the library reported an error');
  Result := BytesToHex(Call.Output, Call.Prim^.OutLen);
end;

function Compute(Request: TJSONObject): TJSONObject;
var
  Msg: TBytes;
  Output: array[0..MaxOutLen - 1] of byte;
  Call: TBenchCall;
begin
  Call := Prepare(Request, Msg);
  Call.Output := @Output[0];
  Result := TJSONObject.Create(['output', CallOnce(Call)]);
end;

function Bench(Request: TJSONObject): TJSONObject;
var
  Msg: TBytes;
  Output: array[0..MaxOutLen - 1] of byte;
  Call: TBenchCall;
  Iterations, Batches: int64;
  Hex: string;
  Samples: TJSONArray;
  Ok: boolean;
begin
  Call := Prepare(Request, Msg);
  Call.Output := @Output[0];
  Iterations := FieldCount(Request, 'iterations', MAX_ITERATIONS);
  Batches := FieldCount(Request, 'batches', MAX_BATCHES);
  Hex := CallOnce(Call);
  Samples := TimeBatches(Call, Iterations, Batches, Ok);
  if not Ok then
  begin
    Samples.Free;
    Fail('internal', Call.Prim^.Id + ': the library reported an error in the timed loop');
  end;
  Result := TJSONObject.Create(['output', Hex, 'samples', Samples]);
end;

function Dispatch(Request: TJSONObject): TJSONObject;
var
  Op: string;
begin
  Op := FieldString(Request, 'op');
  if Op = 'hello' then
    Result := Hello
  else if Op = 'compute' then
    Result := Compute(Request)
  else if Op = 'bench' then
    Result := Bench(Request)
  else if Op = 'leak' then
    Result := LeakRequest(Request)
  else
  begin
    Fail('bad_request', 'unknown op "' + Op + '"');
    Result := nil;
  end;
end;

{ Never raises: every failure becomes an error reply. }
function Answer(const Line: string): string;
var
  Request: TJSONObject;
  Id: TJSONData;
begin
  Request := nil;
  Id := nil;
  try
    try
      Request := ParseRequest(Line);
      Id := RequestId(Request);
      if Id = nil then
        Fail('bad_request', 'missing or non-integer "id"');
      Result := OkReply(Id, Dispatch(Request));
    except
      on E: EProtocol do
        Result := ErrorReply(Id, E.Kind, E.Message);
      on E: Exception do
        Result := ErrorReply(Id, 'internal', E.ClassName + ': ' + E.Message);
    end;
  finally
    Request.Free;
  end;
end;

var
  Line, Why: string;
  TooLong: boolean;

begin
  LoadLibraries;
  Line := '';
  while ReadRequest(Line, TooLong) do
  begin
    if TooLong then
      Why := 'request line longer than ' + IntToStr(LINE_LIMIT) + ' bytes'
    else
      Why := LineRefusal(Line);
    if Why <> '' then
      WriteLn(Output, ErrorReply(nil, 'bad_request', Why))
    else
      WriteLn(Output, Answer(Line));
    Flush(Output);
  end;
end.
