{ Protocol v1 framing: JSON parsing and replies through fcl-json, the
  protocol's error kinds, typed access to request fields, hex codec. }
unit protocol;

{$mode objfpc}{$H+}

interface

uses
  SysUtils, fpjson;

type
  // A request the runner answers with "ok": false; Kind is one of the
  // protocol's error kinds.
  EProtocol = class(Exception)
  public
    Kind: string;
    constructor CreateKind(const AKind, AMessage: string);
  end;

procedure Fail(const Kind, Message: string);
function ParseRequest(const Line: string): TJSONObject;
function RequestId(Request: TJSONObject): TJSONData;
function OkReply(Id: TJSONData; Payload: TJSONObject): string;
function ErrorReply(Id: TJSONData; const Kind, Message: string): string;
function FieldString(Obj: TJSONObject; const Name: string): string;
function FieldCount(Obj: TJSONObject; const Name: string; Max: Int64): Int64;
function FieldObject(Obj: TJSONObject; const Name: string; Required: boolean): TJSONObject;
function HexToBytes(const Hex, Name: string): TBytes;
function BytesToHex(Data: PByte; Len: PtrUInt): string;

implementation

uses
  Classes, jsonparser, jsonscanner;

constructor EProtocol.CreateKind(const AKind, AMessage: string);
begin
  inherited Create(AMessage);
  Kind := AKind;
end;

procedure Fail(const Kind, Message: string);
begin
  raise EProtocol.CreateKind(Kind, Message);
end;

function ParseRequest(const Line: string): TJSONObject;
var
  Parser: TJSONParser;
  Data: TJSONData;
begin
  Data := nil;
  Parser := TJSONParser.Create(Line, [joUTF8, joStrict]);
  try
    try
      Data := Parser.Parse;
    except
      on E: Exception do
        Fail('bad_request', 'not JSON: ' + E.Message);
    end;
  finally
    Parser.Free;
  end;
  if not (Data is TJSONObject) then
  begin
    Data.Free;
    Fail('bad_request', 'a request must be a JSON object');
  end;
  Result := TJSONObject(Data);
end;

{ The request's integer id, or nil when it cannot be read (echoed as null). }
function RequestId(Request: TJSONObject): TJSONData;
var
  Id: TJSONData;
begin
  Result := nil;
  Id := Request.Find('id');
  if (Id <> nil) and (Id.JSONType = jtNumber) and
    (TJSONNumber(Id).NumberType in [ntInteger, ntInt64]) then
    Result := Id;
end;

function Reply(Id: TJSONData; Ok: boolean; const Key: string; Payload: TJSONData): string;
var
  Msg: TJSONObject;
begin
  Msg := TJSONObject.Create;
  try
    if Id = nil then
      Msg.Add('id', TJSONNull.Create)
    else
      Msg.Add('id', Id.AsInt64);
    Msg.Add('ok', Ok);
    Msg.Add(Key, Payload);
    Result := Msg.FormatJSON([foSingleLineArray, foSingleLineObject, foSkipWhiteSpace]);
  finally
    Msg.Free;
  end;
end;

function OkReply(Id: TJSONData; Payload: TJSONObject): string;
begin
  Result := Reply(Id, True, 'result', Payload);
end;

function ErrorReply(Id: TJSONData; const Kind, Message: string): string;
var
  Error: TJSONObject;
begin
  Error := TJSONObject.Create(['kind', Kind, 'message', Message]);
  Result := Reply(Id, False, 'error', Error);
end;

function FieldString(Obj: TJSONObject; const Name: string): string;
var
  Value: TJSONData;
begin
  Value := Obj.Find(Name);
  if Value = nil then
    Fail('bad_request', 'missing field "' + Name + '"');
  if Value.JSONType <> jtString then
    Fail('bad_request', 'field "' + Name + '" must be a string');
  Result := Value.AsString;
end;

{ A positive integer field (iterations, batches); above Max is invalid_params. }
function FieldCount(Obj: TJSONObject; const Name: string; Max: Int64): Int64;
var
  Value: TJSONData;
begin
  Value := Obj.Find(Name);
  if Value = nil then
    Fail('bad_request', 'missing field "' + Name + '"');
  if (Value.JSONType <> jtNumber) or
    not (TJSONNumber(Value).NumberType in [ntInteger, ntInt64]) then
    Fail('bad_request', 'field "' + Name + '" must be an integer');
  Result := Value.AsInt64;
  if Result < 1 then
    Fail('bad_request', 'field "' + Name + '" must be at least 1');
  if Result > Max then
    Fail('invalid_params', 'field "' + Name + '" must be at most ' + IntToStr(Max));
end;

{ An object field; an optional one that is absent reads as nil. }
function FieldObject(Obj: TJSONObject; const Name: string; Required: boolean): TJSONObject;
var
  Value: TJSONData;
begin
  Result := nil;
  Value := Obj.Find(Name);
  if (Value = nil) and Required then
    Fail('bad_request', 'missing field "' + Name + '"');
  if Value = nil then
    Exit;
  if Value.JSONType <> jtObject then
    Fail('bad_request', 'field "' + Name + '" must be an object');
  Result := TJSONObject(Value);
end;

function HexToBytes(const Hex, Name: string): TBytes;
var
  Len: PtrUInt;
begin
  Result := nil;
  Len := Length(Hex) div 2;
  if Odd(Length(Hex)) then
    Fail('bad_request', Name + ': hex string of odd length');
  SetLength(Result, Len);
  if (Len > 0) and (PtrUInt(HexToBin(PChar(Hex), PChar(@Result[0]), Len)) <> Len) then
    Fail('bad_request', Name + ': not a hex string');
end;

function BytesToHex(Data: PByte; Len: PtrUInt): string;
begin
  Result := '';
  SetLength(Result, 2 * Len);
  if Len > 0 then
    BinToHex(PChar(Data), PChar(Result), Len);
  Result := LowerCase(Result);
end;

end.
